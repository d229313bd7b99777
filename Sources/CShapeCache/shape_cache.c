/* See shape_cache_internal.h. Pango 1.50.12's pango_hb_shape fills a buffer with three
 * hb_buffer_add_utf8 calls (pre-context, the item, post-context, all from the paragraph's text),
 * maybe adds a hyphen with hb_buffer_add, then calls hb_shape. Both HarfBuzz functions are defined
 * here too, so libpango's calls land here first: the add calls tell which stretch of which text the
 * buffer holds, and hb_shape answers from this thread's last whole item when it can. Unless the
 * start-up check switched the cache on, both only hand the call to HarfBuzz. */
#define _GNU_SOURCE
#include "shape_cache_internal.h"
#include "word_shapes.h"
#include <dlfcn.h>
#include <hb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static shim_hb_shape_fn harfbuzz_shape;
static shim_hb_add_utf8_fn harfbuzz_add_utf8;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;
static pthread_once_t key_made = PTHREAD_ONCE_INIT;
static pthread_key_t thread_end;

/* Set by the start-up check before any other thread exists; SHAPE_CACHE_OFF until then. */
static _Atomic int mode = SHAPE_CACHE_OFF;
static _Atomic int probe_saw_add, probe_saw_shape;

static struct {
    _Atomic uint64_t shaped, shapedChars, served, servedChars, wordItems, wordChars, mismatches;
} totals;

static void count(_Atomic uint64_t *counter, uint64_t n) { atomic_fetch_add_explicit(counter, n, memory_order_relaxed); }

/* HarfBuzz looks at most 5 characters either side of the item (HB_BUFFER_CONTEXT_LENGTH). */
enum { CONTEXT_BYTES = 32 };

/* The buffer being filled, from its add calls. */
typedef struct {
    hb_buffer_t *buffer;
    const char *text;
    unsigned start, end;   /* the item, in bytes of text */
    int text_length;       /* from the post-context call; -1 until then */
} filling_t;

/* A whole item this thread shaped, and how. */
typedef struct {
    int valid;
    unsigned long used;    /* when last shaped or served from, to keep the most recent */
    hb_font_t *font;       /* Pango's font (the parent of the per-call font it shapes with), referenced */
    int x_scale, y_scale;
    int text_length;
    unsigned window_start; /* the text's bytes [window_start, window_start + window_length) */
    unsigned window_length;
    char *window;
    unsigned start, end;
    hb_segment_properties_t props;
    hb_buffer_flags_t flags;  /* as the caller set them, without PRODUCE_UNSAFE_TO_CONCAT */
    hb_buffer_cluster_level_t cluster_level;
    hb_codepoint_t invisible;
    hb_feature_t *features;
    unsigned feature_count;
    hb_buffer_t *glyphs;
} item_t;

/* Enough for a block's paragraphs: its lines are shaped after all of them were measured (and Pango
 * measures fonts, shaping a sample text, in the middle of breaking a paragraph). */
enum { ITEMS = 16 };

typedef struct {
    filling_t filling;
    item_t items[ITEMS];
    unsigned long clock;
    int registered;
} cache_t;

static __thread cache_t cache;

static void forget(item_t *item) {
    if (!item->valid) return;
    hb_font_destroy(item->font);
    hb_buffer_destroy(item->glyphs);
    free(item->window);
    free(item->features);
    item->valid = 0;
}

static void forget_all(cache_t *c) {
    for (int i = 0; i < ITEMS; i++) forget(&c->items[i]);
}

static void thread_ended(void *p) { forget_all((cache_t *)p); }

/* HarfBuzz's own, the next definitions after the program's. */
static void resolve(void) {
    harfbuzz_shape = (shim_hb_shape_fn)dlsym(RTLD_NEXT, "hb_shape");
    harfbuzz_add_utf8 = (shim_hb_add_utf8_fn)dlsym(RTLD_NEXT, "hb_buffer_add_utf8");
}

static void make_key(void) { pthread_key_create(&thread_end, thread_ended); }

int shape_cache_resolved(void) {
    pthread_once(&resolved, resolve);
    return harfbuzz_shape != NULL && harfbuzz_add_utf8 != NULL;
}

void shape_cache_set_mode(shape_cache_mode m) { atomic_store(&mode, m); }

void shape_cache_probe_reset(void) {
    atomic_store(&probe_saw_add, 0);
    atomic_store(&probe_saw_shape, 0);
}

int shape_cache_probe_reached(void) { return atomic_load(&probe_saw_add) && atomic_load(&probe_saw_shape); }

shape_cache_stats shape_cache_totals(void) {
    return (shape_cache_stats){
        atomic_load(&totals.shaped), atomic_load(&totals.shapedChars), atomic_load(&totals.served),
        atomic_load(&totals.servedChars), atomic_load(&totals.wordItems), atomic_load(&totals.wordChars),
        atomic_load(&totals.mismatches),
    };
}

void hb_buffer_add_utf8(hb_buffer_t *buffer, const char *text, int text_length, unsigned item_offset, int item_length) {
    pthread_once(&resolved, resolve);
    int m = atomic_load_explicit(&mode, memory_order_relaxed);
    if (m != SHAPE_CACHE_ON && m != SHAPE_CACHE_VERIFYING) {
        if (m == SHAPE_CACHE_PROBING) atomic_store(&probe_saw_add, 1);
        harfbuzz_add_utf8(buffer, text, text_length, item_offset, item_length);
        return;
    }
    filling_t *f = &cache.filling;
    if (item_length > 0 && text_length >= 0) {
        *f = (filling_t){ buffer, text, item_offset, item_offset + (unsigned)item_length, -1 };
    } else if (item_length == 0 && f->buffer == buffer && f->text == text && item_offset == f->end && text_length >= 0) {
        f->text_length = text_length;
    } else if (item_length != 0) {
        f->buffer = NULL;
    }
    harfbuzz_add_utf8(buffer, text, text_length, item_offset, item_length);
}

/* The item was shaped in `font`, at the scale it has now. */
static int same_font(const item_t *item, hb_font_t *font) {
    if (item->font != font) return 0;
    int xs, ys;
    hb_font_get_scale(font, &xs, &ys);
    return xs == item->x_scale && ys == item->y_scale;
}

/* [start, end) lies in the item, shaped with the same font, settings and features, and the text
 * around it is unchanged. */
static int matches_item(const item_t *item, hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features,
                        unsigned feature_count, const filling_t *f, unsigned start, unsigned end) {
    if (!item->valid || start < item->start || end > item->end) return 0;
    if (!same_font(item, font) || f->text_length != item->text_length) return 0;
    hb_segment_properties_t props;
    hb_buffer_get_segment_properties(buffer, &props);
    if (!hb_segment_properties_equal(&props, (hb_segment_properties_t *)&item->props)) return 0;
    if (hb_buffer_get_flags(buffer) != item->flags || hb_buffer_get_cluster_level(buffer) != item->cluster_level ||
        hb_buffer_get_invisible_glyph(buffer) != item->invisible) return 0;
    if (feature_count != item->feature_count ||
        (feature_count && memcmp(features, item->features, feature_count * sizeof *features))) return 0;
    unsigned from = start > CONTEXT_BYTES ? start - CONTEXT_BYTES : 0;
    unsigned to = end + CONTEXT_BYTES < (unsigned)f->text_length ? end + CONTEXT_BYTES : (unsigned)f->text_length;
    return memcmp(f->text + from, item->window + (from - item->window_start), to - from) == 0;
}

/* In a forward run clusters never decrease along the glyphs, in a backward one they never increase. */
static unsigned first_glyph_at_or_after(const hb_glyph_info_t *g, unsigned n, unsigned cluster, int backward) {
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        int before = backward ? g[mid].cluster >= cluster : g[mid].cluster < cluster;
        if (before) lo = mid + 1; else hi = mid;
    }
    return lo;  /* backward: the first glyph of a cluster before `cluster` */
}

/* The glyphs of clusters [start, end) of the item, as [*from, *to); 0 unless both ends are cluster
 * starts, `start` without `start_unsafe` and `end` without `end_unsafe` (an end of the item itself is
 * always fine). */
static int item_slice(const item_t *item, unsigned start, unsigned end, hb_glyph_flags_t start_unsafe,
                      hb_glyph_flags_t end_unsafe, unsigned *from, unsigned *to) {
    unsigned n;
    const hb_glyph_info_t *g = hb_buffer_get_glyph_infos(item->glyphs, &n);
    int backward = HB_DIRECTION_IS_BACKWARD(item->props.direction);
    unsigned at[2] = { first_glyph_at_or_after(g, n, start, backward), first_glyph_at_or_after(g, n, end, backward) };
    unsigned bound[2] = { start, end }, edge[2] = { item->start, item->end };
    hb_glyph_flags_t unsafe[2] = { start_unsafe, end_unsafe };
    for (int k = 0; k < 2; k++) {
        if (bound[k] == edge[k]) continue;
        /* backward: the glyph of cluster bound[k] sits just before the first glyph of the clusters before it */
        unsigned i = backward ? at[k] - 1 : at[k];
        if ((backward && at[k] == 0) || i >= n || g[i].cluster != bound[k]) return 0;
        if (hb_glyph_info_get_glyph_flags(&g[i]) & unsafe[k]) return 0;
    }
    *from = backward ? at[1] : at[0];
    *to = backward ? at[0] : at[1];
    return 1;
}

/* A piece ending in a hyphen the caller added (glyph `hyphen` for the character at `hyphen_at`):
 * the item's glyphs up to a cluster start the rest can be shaped apart from, then the rest. */
static int serve_hyphenated(const item_t *item, hb_font_t *shaping_font, hb_buffer_t *buffer, const hb_feature_t *features,
                            unsigned feature_count, const filling_t *f, hb_codepoint_t hyphen, unsigned hyphen_at) {
    if (HB_DIRECTION_IS_BACKWARD(item->props.direction)) return 0;
    unsigned n;
    const hb_glyph_info_t *g = hb_buffer_get_glyph_infos(item->glyphs, &n);
    unsigned i = first_glyph_at_or_after(g, n, hyphen_at + 1, 0);
    unsigned cut = 0;
    int found = 0;
    while (i-- > 0 && g[i].cluster > f->start) {
        int cluster_start = i == 0 || g[i - 1].cluster != g[i].cluster;
        if (cluster_start && !(hb_glyph_info_get_glyph_flags(&g[i]) & HB_GLYPH_FLAG_UNSAFE_TO_CONCAT)) {
            cut = g[i].cluster;
            found = 1;
            break;
        }
    }
    unsigned from, to;
    if (!found || !item_slice(item, f->start, cut, HB_GLYPH_FLAG_UNSAFE_TO_BREAK, HB_GLYPH_FLAG_UNSAFE_TO_CONCAT, &from, &to)) return 0;
    /* The rest as Pango would have filled it, had the item started at the cut. */
    hb_buffer_t *rest = hb_buffer_create();
    hb_buffer_set_segment_properties(rest, &item->props);
    hb_buffer_set_flags(rest, item->flags | HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT);
    hb_buffer_set_cluster_level(rest, item->cluster_level);
    hb_buffer_set_invisible_glyph(rest, item->invisible);
    harfbuzz_add_utf8(rest, f->text, (int)cut, cut, 0);
    harfbuzz_add_utf8(rest, f->text, (int)f->end, cut, (int)(f->end - cut));
    harfbuzz_add_utf8(rest, f->text, f->text_length, f->end, 0);
    hb_buffer_add(rest, hyphen, hyphen_at);
    harfbuzz_shape(shaping_font, rest, features, feature_count);
    unsigned rest_length;
    const hb_glyph_info_t *r = hb_buffer_get_glyph_infos(rest, &rest_length);
    int joins = rest_length > 0 && r[0].cluster == cut &&
                !(hb_glyph_info_get_glyph_flags(&r[0]) & HB_GLYPH_FLAG_UNSAFE_TO_CONCAT);
    if (joins) {
        hb_buffer_set_length(buffer, 0);
        hb_buffer_append(buffer, item->glyphs, from, to);
        hb_buffer_append(buffer, rest, 0, rest_length);
        count(&totals.servedChars, shim_utf8_chars(f->text + f->start, cut - f->start));
    }
    hb_buffer_destroy(rest);
    return joins;
}

/* The item kept that the buffer's text is a piece of, shaped the same way; NULL if none. */
static item_t *containing_item(hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features,
                               unsigned feature_count, const filling_t *f) {
    for (int i = 0; i < ITEMS; i++)
        if (matches_item(&cache.items[i], font, buffer, features, feature_count, f, f->start, f->end)) return &cache.items[i];
    return NULL;
}

/* Fills `buffer` with its glyphs from `item` when that is exact; 0 when it must be shaped. */
static int serve(const item_t *item, hb_font_t *shaping_font, hb_buffer_t *buffer, const hb_feature_t *features,
                 unsigned feature_count, const filling_t *f) {
    if (item->cluster_level == HB_BUFFER_CLUSTER_LEVEL_CHARACTERS) return 0;  /* clusters need not be monotone */
    unsigned n;
    const hb_glyph_info_t *in = hb_buffer_get_glyph_infos(buffer, &n);
    if (hb_buffer_get_content_type(buffer) != HB_BUFFER_CONTENT_TYPE_UNICODE || n == 0 || in[0].cluster != f->start) return 0;
    unsigned chars = shim_utf8_chars(f->text + f->start, f->end - f->start);
    if (n == chars && in[n - 1].cluster < f->end) {
        unsigned from, to;
        if (!item_slice(item, f->start, f->end, HB_GLYPH_FLAG_UNSAFE_TO_BREAK, HB_GLYPH_FLAG_UNSAFE_TO_BREAK, &from, &to)) return 0;
        hb_buffer_set_length(buffer, 0);
        hb_buffer_append(buffer, item->glyphs, from, to);
        count(&totals.servedChars, chars);
        return 1;
    }
    if (n == chars + 1 && (in[n - 1].codepoint == 0x2010 || in[n - 1].codepoint == '-') &&
        in[n - 1].cluster >= f->start && in[n - 1].cluster <= f->end)
        return serve_hyphenated(item, shaping_font, buffer, features, feature_count, f, in[n - 1].codepoint, in[n - 1].cluster);
    return 0;
}

int shape_cache_piece_is_cut(hb_font_t *font, const char *text, int text_length, unsigned item_start, unsigned item_end,
                             unsigned start, unsigned end) {
    if (atomic_load_explicit(&mode, memory_order_relaxed) != SHAPE_CACHE_ON || !text || text_length < 0) return 0;
    for (int i = 0; i < ITEMS; i++) {
        const item_t *item = &cache.items[i];
        if (!item->valid || !same_font(item, font) || item->start != item_start || item->end != item_end ||
            item->text_length != text_length || item->cluster_level == HB_BUFFER_CLUSTER_LEVEL_CHARACTERS ||
            HB_DIRECTION_IS_BACKWARD(item->props.direction) ||
            memcmp(text + item->window_start, item->window, item->window_length) != 0) continue;
        unsigned from, to;
        return item_slice(item, start, end, HB_GLYPH_FLAG_UNSAFE_TO_BREAK, HB_GLYPH_FLAG_UNSAFE_TO_BREAK, &from, &to);
    }
    return 0;
}

static void remember(hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned feature_count,
                     const filling_t *f, hb_buffer_flags_t flags) {
    item_t *item = &cache.items[0];
    for (int i = 1; i < ITEMS; i++)
        if (!cache.items[i].valid || (item->valid && cache.items[i].used < item->used)) item = &cache.items[i];
    forget(item);
    item->used = ++cache.clock;
    pthread_once(&key_made, make_key);
    if (!cache.registered) { pthread_setspecific(thread_end, &cache); cache.registered = 1; }
    item->font = hb_font_reference(font);
    hb_font_get_scale(font, &item->x_scale, &item->y_scale);
    item->text_length = f->text_length;
    item->window_start = f->start > CONTEXT_BYTES ? f->start - CONTEXT_BYTES : 0;
    unsigned window_end = f->end + CONTEXT_BYTES < (unsigned)f->text_length ? f->end + CONTEXT_BYTES : (unsigned)f->text_length;
    item->window_length = window_end - item->window_start;
    item->window = malloc(item->window_length + 1);
    item->features = malloc(feature_count * sizeof *features + 1);
    item->glyphs = hb_buffer_create();
    if (!item->window || !item->features) { free(item->window); free(item->features); hb_font_destroy(item->font); hb_buffer_destroy(item->glyphs); return; }
    memcpy(item->window, f->text + item->window_start, item->window_length);
    item->start = f->start;
    item->end = f->end;
    hb_buffer_get_segment_properties(buffer, &item->props);
    item->flags = flags;
    item->cluster_level = hb_buffer_get_cluster_level(buffer);
    item->invisible = hb_buffer_get_invisible_glyph(buffer);
    if (feature_count) memcpy(item->features, features, feature_count * sizeof *features);
    item->feature_count = feature_count;
    hb_buffer_append(item->glyphs, buffer, 0, hb_buffer_get_length(buffer));
    item->valid = hb_buffer_allocation_successful(item->glyphs);
    if (!item->valid) { item->valid = 1; forget(item); }
}

static hb_buffer_t *copy_input(hb_buffer_t *buffer) {
    hb_buffer_t *copy = hb_buffer_create();
    hb_segment_properties_t props;
    hb_buffer_get_segment_properties(buffer, &props);
    hb_buffer_append(copy, buffer, 0, hb_buffer_get_length(buffer));
    hb_buffer_set_segment_properties(copy, &props);
    hb_buffer_set_flags(copy, hb_buffer_get_flags(buffer));
    hb_buffer_set_cluster_level(copy, hb_buffer_get_cluster_level(buffer));
    hb_buffer_set_invisible_glyph(copy, hb_buffer_get_invisible_glyph(buffer));
    return copy;
}

static int same_glyphs(hb_buffer_t *a, hb_buffer_t *b, int with_flags) {
    unsigned na, nb;
    const hb_glyph_info_t *ga = hb_buffer_get_glyph_infos(a, &na), *gb = hb_buffer_get_glyph_infos(b, &nb);
    if (na != nb) return 0;
    const hb_glyph_position_t *pa = hb_buffer_get_glyph_positions(a, NULL), *pb = hb_buffer_get_glyph_positions(b, NULL);
    for (unsigned i = 0; i < na; i++) {
        if (ga[i].codepoint != gb[i].codepoint || ga[i].cluster != gb[i].cluster) return 0;
        if (pa[i].x_advance != pb[i].x_advance || pa[i].y_advance != pb[i].y_advance ||
            pa[i].x_offset != pb[i].x_offset || pa[i].y_offset != pb[i].y_offset) return 0;
        if (with_flags && (hb_glyph_info_get_glyph_flags(&ga[i]) ^ hb_glyph_info_get_glyph_flags(&gb[i])) & HB_GLYPH_FLAG_UNSAFE_TO_BREAK)
            return 0;
    }
    return 1;
}

/* A whole item put together from its words' glyphs (word_shapes.c); while verifying, also
 * shaped whole and compared, HB_GLYPH_FLAG_UNSAFE_TO_BREAK included (later pieces are cut where it
 * is clear). HB_GLYPH_FLAG_UNSAFE_TO_CONCAT may differ: shaped apart, a word's last glyph carries it
 * because HarfBuzz ran out of text there; shaped whole, the space after it may carry it because a
 * lookup looked at it in vain. Either only keeps a cut from being made. */
static int from_words(hb_font_t *font, hb_font_t *shaping_font, hb_buffer_t *buffer, const hb_feature_t *features,
                      unsigned feature_count, const filling_t *f, hb_buffer_flags_t flags, int verifying) {
    shim_word_request request = { harfbuzz_shape, harfbuzz_add_utf8, font, shaping_font, features, feature_count,
                                  f->text, f->start, f->end, flags };
    hb_buffer_t *input = verifying ? copy_input(buffer) : NULL;
    uint64_t reused = 0, shaped = 0;
    int filled = shim_word_shapes_fill(&request, buffer, &reused, &shaped);
    count(&totals.shapedChars, shaped);
    if (filled) {
        count(&totals.wordItems, 1);
        count(&totals.wordChars, reused);
        if (input) {
            harfbuzz_shape(shaping_font, input, features, feature_count);
            if (!same_glyphs(input, buffer, 1)) count(&totals.mismatches, 1);
        }
    }
    if (input) hb_buffer_destroy(input);
    return filled;
}

/* The buffer holds the text and a hyphen after it (Pango's NEED_HYPHEN), as `serve` takes it. */
static int has_added_hyphen(hb_buffer_t *buffer, const filling_t *f) {
    unsigned n;
    const hb_glyph_info_t *in = hb_buffer_get_glyph_infos(buffer, &n);
    return hb_buffer_get_content_type(buffer) == HB_BUFFER_CONTENT_TYPE_UNICODE &&
           n == shim_utf8_chars(f->text + f->start, f->end - f->start) + 1 &&
           (in[n - 1].codepoint == 0x2010 || in[n - 1].codepoint == '-') && in[n - 1].cluster >= f->start && in[n - 1].cluster <= f->end;
}

/* A line asked for with its hyphen at once (Pango's own line breaking shapes it first without):
 * the text alone, shaped (from its words where it can be) and kept as the item the hyphenated
 * piece is then served from; NULL when it could not be kept. */
static item_t *keep_unhyphenated(hb_font_t *font, hb_font_t *shaping_font, hb_buffer_t *buffer, const hb_feature_t *features,
                                 unsigned feature_count, const filling_t *f, int verifying) {
    hb_buffer_t *plain = hb_buffer_create();
    hb_segment_properties_t props;
    hb_buffer_get_segment_properties(buffer, &props);
    hb_buffer_set_segment_properties(plain, &props);
    hb_buffer_flags_t flags = hb_buffer_get_flags(buffer);
    hb_buffer_set_flags(plain, flags | HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT);
    hb_buffer_set_cluster_level(plain, hb_buffer_get_cluster_level(buffer));
    hb_buffer_set_invisible_glyph(plain, hb_buffer_get_invisible_glyph(buffer));
    /* As Pango fills a buffer: the text before as context, the item, the text after as context. */
    harfbuzz_add_utf8(plain, f->text, (int)f->start, f->start, 0);
    harfbuzz_add_utf8(plain, f->text, (int)f->end, f->start, (int)(f->end - f->start));
    harfbuzz_add_utf8(plain, f->text, f->text_length, f->end, 0);
    if (!from_words(font, shaping_font, plain, features, feature_count, f, flags, verifying)) {
        harfbuzz_shape(shaping_font, plain, features, feature_count);
        count(&totals.shaped, 1);
        count(&totals.shapedChars, shim_utf8_chars(f->text + f->start, f->end - f->start));
    }
    item_t *kept = NULL;
    if (hb_buffer_allocation_successful(plain)) {
        remember(font, plain, features, feature_count, f, flags);
        kept = containing_item(font, buffer, features, feature_count, f);
    }
    hb_buffer_destroy(plain);
    return kept;
}

void hb_shape(hb_font_t *shaping_font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned feature_count) {
    pthread_once(&resolved, resolve);
    int m = atomic_load_explicit(&mode, memory_order_relaxed);
    if (m != SHAPE_CACHE_ON && m != SHAPE_CACHE_VERIFYING) {
        if (m == SHAPE_CACHE_PROBING) atomic_store(&probe_saw_shape, 1);
        harfbuzz_shape(shaping_font, buffer, features, feature_count);
        return;
    }
    int verifying = m == SHAPE_CACHE_VERIFYING;
    filling_t f = cache.filling;
    cache.filling.buffer = NULL;
    /* Pango shapes with a font of its own made for the call on top of the PangoFont's: key on that one. */
    hb_font_t *font = hb_font_get_parent(shaping_font);
    if (f.buffer != buffer || f.text_length < 0 || f.end > (unsigned)f.text_length ||
        !font || font == hb_font_get_empty()) {
        harfbuzz_shape(shaping_font, buffer, features, feature_count);
        return;
    }
    item_t *item = containing_item(font, buffer, features, feature_count, &f);
    if (!item && has_added_hyphen(buffer, &f)) item = keep_unhyphenated(font, shaping_font, buffer, features, feature_count, &f, verifying);
    hb_buffer_t *input = item && verifying ? copy_input(buffer) : NULL;
    if (item && serve(item, shaping_font, buffer, features, feature_count, &f)) {
        item->used = ++cache.clock;
        count(&totals.served, 1);
        if (input) {
            harfbuzz_shape(shaping_font, input, features, feature_count);
            if (!same_glyphs(input, buffer, 0)) count(&totals.mismatches, 1);
            hb_buffer_destroy(input);
        }
        return;
    }
    if (input) hb_buffer_destroy(input);
    /* Anything else added to the text (a hyphen that could not be served): shaped as asked and not
     * kept, since its glyphs are not the text's alone (neither its words' nor an item's to cut). */
    if (!item && hb_buffer_get_length(buffer) != shim_utf8_chars(f.text + f.start, f.end - f.start)) {
        harfbuzz_shape(shaping_font, buffer, features, feature_count);
        count(&totals.shaped, 1);
        count(&totals.shapedChars, shim_utf8_chars(f.text + f.start, f.end - f.start));
        return;
    }
    /* A piece of the item kept is shaped as asked; anything else becomes the item kept, shaped with the
     * flags that say where it may be cut (glyphs and positions are the same with them or without),
     * from its words' glyphs where they fit together exactly. */
    int piece = item != NULL;
    hb_buffer_flags_t flags = hb_buffer_get_flags(buffer);
    if (!piece) hb_buffer_set_flags(buffer, flags | HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT);
    if (piece || !from_words(font, shaping_font, buffer, features, feature_count, &f, flags, verifying)) {
        harfbuzz_shape(shaping_font, buffer, features, feature_count);
        count(&totals.shaped, 1);
        count(&totals.shapedChars, shim_utf8_chars(f.text + f.start, f.end - f.start));
    }
    if (!piece) {
        remember(font, buffer, features, feature_count, &f, flags);
        hb_buffer_set_flags(buffer, flags);
    }
}
