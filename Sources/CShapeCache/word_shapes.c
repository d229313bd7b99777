/* See word_shapes.h. A book says the same few thousand words over and over; browsers shape a
 * word once and reuse its glyphs wherever it comes again (Blink's word shape cache, Gecko's shaped
 * words), for fonts in which no OpenType lookup involves the space glyph: then nothing HarfBuzz does
 * reaches across a space, and a text shaped whole gives the glyphs of its pieces shaped apart, cut
 * before each space. That is checked once per font and way of shaping: the space glyph in none of
 * GSUB's or GPOS's lookups (hb_ot_layout_lookup_collect_glyphs), no kern table standing in for GPOS,
 * none of Apple's tables. The pieces here are a word with the spaces before it (a cut comes before
 * the first space of a run, and only where what follows the spaces starts a cluster of its own), and
 * only scripts HarfBuzz shapes with its default shaper are taken, the others looking at the text
 * around an item. Each piece is shaped with HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT, so later cuts
 * inside it (shape_cache.c) see HarfBuzz's flags; at a piece's end, where HarfBuzz ran out of
 * text, the flag it leaves only makes those cuts more careful. */
#define _GNU_SOURCE
#include "word_shapes.h"
#include <hb-aat.h>
#include <hb-ot.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct word {
    struct word *next;
    uint64_t hash;
    unsigned length;          /* bytes of text */
    unsigned glyph_count;
    hb_buffer_flags_t flags;  /* BOT and EOT as this unit was shaped */
    hb_glyph_info_t *infos;   /* clusters from 0 at the unit's first byte */
    hb_glyph_position_t *positions;
    char text[];
} word_t;

/* The words of one font, shaped one way. */
typedef struct {
    int valid;
    unsigned long used;
    hb_font_t *font;          /* referenced, so that its address is not reused while kept */
    int x_scale, y_scale;
    hb_segment_properties_t props;
    hb_buffer_flags_t flags;  /* the caller's, without BOT and EOT */
    hb_buffer_cluster_level_t cluster_level;
    hb_codepoint_t invisible, not_found, replacement;
    hb_feature_t *features;
    unsigned feature_count;
    int takes;                /* nothing in the font reaches across a space */
    word_t **buckets;         /* open hashing, a power of two */
    unsigned bucket_count, count;
} font_words_t;

enum { FONTS = 8, MAX_WORDS = 1 << 15 };

typedef struct {
    font_words_t fonts[FONTS];
    unsigned long clock;
    hb_buffer_t *scratch;
    word_t **units;
    unsigned *unit_starts;
    unsigned *unit_slots;     /* per unit shaped with others: its place among them */
    unsigned unit_capacity;
    char *batch;              /* the units to shape, end to end */
    unsigned *batch_offsets;  /* where each starts in `batch`, and its end */
    unsigned batch_capacity;
    int registered;
} words_t;

static __thread words_t words;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_end;

static void free_words(font_words_t *fw) {
    for (unsigned b = 0; b < fw->bucket_count; b++) {
        for (word_t *w = fw->buckets[b], *next; w; w = next) {
            next = w->next;
            free(w->infos);
            free(w->positions);
            free(w);
        }
    }
    free(fw->buckets);
    fw->buckets = NULL;
    fw->bucket_count = fw->count = 0;
}

static void forget_font(font_words_t *fw) {
    if (!fw->valid) return;
    free_words(fw);
    hb_font_destroy(fw->font);
    free(fw->features);
    fw->valid = 0;
}

/* Frees this thread's words. */
static void forget_words(void) {
    for (int i = 0; i < FONTS; i++) forget_font(&words.fonts[i]);
    hb_buffer_destroy(words.scratch);
    words.scratch = NULL;
    free(words.units);
    free(words.unit_starts);
    free(words.unit_slots);
    free(words.batch);
    free(words.batch_offsets);
    words.units = NULL;
    words.unit_starts = NULL;
    words.unit_slots = NULL;
    words.batch = NULL;
    words.batch_offsets = NULL;
    words.unit_capacity = 0;
    words.batch_capacity = 0;
}

static void thread_ended(void *unused) { (void)unused; forget_words(); }
static void make_key(void) { pthread_key_create(&thread_end, thread_ended); }

/* Scripts HarfBuzz 6 shapes with its default shaper, which looks at nothing outside the buffer. */
static int default_shaper(hb_script_t script) {
    return script == HB_SCRIPT_LATIN || script == HB_SCRIPT_GREEK || script == HB_SCRIPT_CYRILLIC ||
           script == HB_SCRIPT_ARMENIAN || script == HB_SCRIPT_GEORGIAN || script == HB_SCRIPT_COMMON;
}

static int lookups_use(hb_face_t *face, hb_tag_t table, hb_codepoint_t glyph) {
    hb_set_t *sets[4] = { hb_set_create(), hb_set_create(), hb_set_create(), hb_set_create() };
    unsigned count = hb_ot_layout_table_get_lookup_count(face, table);
    int uses = 0;
    for (unsigned l = 0; l < count && !uses; l++) {
        for (int k = 0; k < 4; k++) hb_set_clear(sets[k]);
        hb_ot_layout_lookup_collect_glyphs(face, table, l, sets[0], sets[1], sets[2], sets[3]);
        for (int k = 0; k < 4; k++) uses |= hb_set_has(sets[k], glyph);
    }
    for (int k = 0; k < 4; k++) uses |= !hb_set_allocation_successful(sets[k]);
    for (int k = 0; k < 4; k++) hb_set_destroy(sets[k]);
    return uses;
}

static int table_present(hb_face_t *face, hb_tag_t tag) {
    hb_blob_t *blob = hb_face_reference_table(face, tag);
    int present = hb_blob_get_length(blob) > 0;
    hb_blob_destroy(blob);
    return present;
}

static int font_takes(hb_font_t *font) {
    hb_face_t *face = hb_font_get_face(font);
    hb_codepoint_t space;
    if (!hb_font_get_nominal_glyph(font, ' ', &space)) return 0;
    if (hb_aat_layout_has_substitution(face) || hb_aat_layout_has_positioning(face) || hb_aat_layout_has_tracking(face))
        return 0;
    if (!hb_ot_layout_has_positioning(face) && table_present(face, HB_TAG('k', 'e', 'r', 'n'))) return 0;
    return !lookups_use(face, HB_OT_TAG_GSUB, space) && !lookups_use(face, HB_OT_TAG_GPOS, space);
}

static int same_font_words(const font_words_t *fw, const shim_word_request *r, hb_buffer_t *buffer,
                           const hb_segment_properties_t *props, hb_buffer_flags_t flags) {
    if (!fw->valid || fw->font != r->font) return 0;
    int xs, ys;
    hb_font_get_scale(r->font, &xs, &ys);
    if (xs != fw->x_scale || ys != fw->y_scale) return 0;
    if (!hb_segment_properties_equal(props, (hb_segment_properties_t *)&fw->props)) return 0;
    if (flags != fw->flags || hb_buffer_get_cluster_level(buffer) != fw->cluster_level ||
        hb_buffer_get_invisible_glyph(buffer) != fw->invisible || hb_buffer_get_not_found_glyph(buffer) != fw->not_found ||
        hb_buffer_get_replacement_codepoint(buffer) != fw->replacement) return 0;
    return r->feature_count == fw->feature_count &&
           (!r->feature_count || memcmp(r->features, fw->features, r->feature_count * sizeof *r->features) == 0);
}

static font_words_t *font_words(const shim_word_request *r, hb_buffer_t *buffer, const hb_segment_properties_t *props,
                                hb_buffer_flags_t flags) {
    font_words_t *oldest = &words.fonts[0];
    for (int i = 0; i < FONTS; i++) {
        font_words_t *fw = &words.fonts[i];
        if (same_font_words(fw, r, buffer, props, flags)) return fw;
        if (!fw->valid || (oldest->valid && fw->used < oldest->used)) oldest = fw;
    }
    forget_font(oldest);
    font_words_t *fw = oldest;
    fw->features = malloc(r->feature_count * sizeof *r->features + 1);
    if (!fw->features) return NULL;
    if (r->feature_count) memcpy(fw->features, r->features, r->feature_count * sizeof *r->features);
    fw->feature_count = r->feature_count;
    fw->font = hb_font_reference(r->font);
    hb_font_get_scale(r->font, &fw->x_scale, &fw->y_scale);
    fw->props = *props;
    fw->flags = flags;
    fw->cluster_level = hb_buffer_get_cluster_level(buffer);
    fw->invisible = hb_buffer_get_invisible_glyph(buffer);
    fw->not_found = hb_buffer_get_not_found_glyph(buffer);
    fw->replacement = hb_buffer_get_replacement_codepoint(buffer);
    fw->takes = font_takes(r->font);
    fw->buckets = NULL;
    fw->bucket_count = fw->count = 0;
    fw->valid = 1;
    return fw;
}

unsigned shim_utf8_chars(const char *p, unsigned n) {
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++) c += (p[i] & 0xC0) != 0x80;
    return c;
}

static uint64_t hash_bytes(const char *p, unsigned n, hb_buffer_flags_t flags) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)flags;
    for (unsigned i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h;
}

static int grow(font_words_t *fw) {
    unsigned count = fw->bucket_count ? fw->bucket_count * 2 : 1024;
    word_t **buckets = calloc(count, sizeof *buckets);
    if (!buckets) return 0;
    for (unsigned b = 0; b < fw->bucket_count; b++) {
        for (word_t *w = fw->buckets[b], *next; w; w = next) {
            next = w->next;
            w->next = buckets[w->hash & (count - 1)];
            buckets[w->hash & (count - 1)] = w;
        }
    }
    free(fw->buckets);
    fw->buckets = buckets;
    fw->bucket_count = count;
    return 1;
}

static word_t *lookup(const font_words_t *fw, const char *text, unsigned length, hb_buffer_flags_t flags, uint64_t h) {
    if (!fw->bucket_count) return NULL;
    for (word_t *w = fw->buckets[h & (fw->bucket_count - 1)]; w; w = w->next)
        if (w->hash == h && w->length == length && w->flags == flags && memcmp(w->text, text, length) == 0) return w;
    return NULL;
}

/* Keeps `n` glyphs for the unit, their clusters counted from `cluster_base`; NULL if out of memory. */
static word_t *store(font_words_t *fw, const char *text, unsigned length, hb_buffer_flags_t flags, uint64_t h,
                     const hb_glyph_info_t *g, const hb_glyph_position_t *p, unsigned n, unsigned cluster_base) {
    if ((fw->count + 1) * 2 > fw->bucket_count && !grow(fw)) return NULL;
    word_t *w = malloc(sizeof *w + length);
    hb_glyph_info_t *infos = malloc(n * sizeof *infos + 1);
    hb_glyph_position_t *positions = malloc(n * sizeof *positions + 1);
    if (!w || !infos || !positions) { free(w); free(infos); free(positions); return NULL; }
    memcpy(w->text, text, length);
    w->hash = h;
    w->length = length;
    w->flags = flags;
    w->glyph_count = n;
    w->infos = infos;
    w->positions = positions;
    if (n) {
        memcpy(infos, g, n * sizeof *infos);
        memcpy(positions, p, n * sizeof *positions);
        for (unsigned i = 0; i < n; i++) infos[i].cluster -= cluster_base;
    }
    unsigned bucket = (unsigned)(h & (fw->bucket_count - 1));
    w->next = fw->buckets[bucket];
    fw->buckets[bucket] = w;
    fw->count++;
    return w;
}

/* Where unit k of the request's `count` ends: where the next starts, or the item's end. */
static unsigned unit_end(const shim_word_request *r, unsigned k, unsigned count) {
    return k + 1 < count ? words.unit_starts[k + 1] : r->end;
}

/* The scratch buffer set up to shape `length` bytes at `text` as a unit with `flags` is shaped. */
static hb_buffer_t *shaping(font_words_t *fw, const shim_word_request *r, const char *text, unsigned length,
                            hb_buffer_flags_t flags) {
    hb_buffer_t *b = words.scratch;
    hb_buffer_clear_contents(b);
    hb_buffer_set_segment_properties(b, &fw->props);
    hb_buffer_set_flags(b, fw->flags | flags | HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT);
    hb_buffer_set_cluster_level(b, fw->cluster_level);
    hb_buffer_set_invisible_glyph(b, fw->invisible);
    hb_buffer_set_not_found_glyph(b, fw->not_found);
    hb_buffer_set_replacement_codepoint(b, fw->replacement);
    r->add_utf8(b, text, (int)length, 0, (int)length);
    r->shape(r->shaping_font, b, r->features, r->feature_count);
    return b;
}

/* The unit's glyphs, shaped now if this thread has not shaped it before; NULL if out of memory. */
static word_t *unit(font_words_t *fw, const shim_word_request *r, const char *text, unsigned length,
                    hb_buffer_flags_t flags, uint64_t *shaped) {
    uint64_t h = hash_bytes(text, length, flags);
    word_t *known = lookup(fw, text, length, flags, h);
    if (known) return known;
    hb_buffer_t *b = shaping(fw, r, text, length, flags);
    *shaped += shim_utf8_chars(text, length);
    unsigned n;
    const hb_glyph_info_t *g = hb_buffer_get_glyph_infos(b, &n);
    const hb_glyph_position_t *p = hb_buffer_get_glyph_positions(b, NULL);
    if (!hb_buffer_allocation_successful(b)) return NULL;
    return store(fw, text, length, flags, h, g, p, n, 0);
}

/* The units of the request not kept yet (`words.units[k]` NULL), all from its middle (no BOT or
 * EOT), shaped in one call, each once: each begins with the spaces before a word, so laid end to
 * end they meet only where nothing the font does reaches across, and each comes out as it does
 * shaped alone, for a fraction of the calls. 0 when they could not be told apart again (the caller
 * then shapes them one by one). */
static int shape_missing(font_words_t *fw, const shim_word_request *r, unsigned count, uint64_t *shaped) {
    if (fw->cluster_level == HB_BUFFER_CLUSTER_LEVEL_CHARACTERS) return 0;  /* clusters need not be monotone */
    unsigned total = 0, missing = 0;
    for (unsigned k = 0; k < count; k++) {
        if (words.units[k]) continue;
        unsigned from = words.unit_starts[k], to = unit_end(r, k, count);
        total += to - from;
        missing++;
    }
    if (missing < 2) return 0;
    if (total + 1 > words.batch_capacity) {
        char *grown = realloc(words.batch, total * 2 + 1);
        unsigned *offsets = realloc(words.batch_offsets, (total * 2 + 2) * sizeof *offsets);
        if (grown) words.batch = grown;
        if (offsets) words.batch_offsets = offsets;
        if (!grown || !offsets) return 0;
        words.batch_capacity = total * 2 + 1;
    }
    /* The distinct units, by a table of their hashes; `words.unit_slots[k]` is unit k's slot. */
    unsigned size = 16;
    while (size < missing * 2) size *= 2;
    unsigned *table = calloc(size, sizeof *table);              /* slot + 1, 0 for none */
    uint64_t *slot_hash = malloc(missing * sizeof *slot_hash);
    unsigned *slot_glyph = malloc((missing + 1) * sizeof *slot_glyph);
    word_t **slot_word = malloc(missing * sizeof *slot_word);
    int done = 0;
    if (!table || !slot_hash || !slot_glyph || !slot_word) goto out;
    unsigned at = 0, slots = 0;
    words.batch_offsets[0] = 0;
    for (unsigned k = 0; k < count; k++) {
        if (words.units[k]) continue;
        unsigned from = words.unit_starts[k], to = unit_end(r, k, count), length = to - from;
        uint64_t h = hash_bytes(r->text + from, length, 0);
        unsigned i = (unsigned)(h & (size - 1)), slot = slots;
        for (; table[i]; i = (i + 1) & (size - 1)) {
            unsigned s = table[i] - 1;
            if (slot_hash[s] == h && words.batch_offsets[s + 1] - words.batch_offsets[s] == length &&
                memcmp(words.batch + words.batch_offsets[s], r->text + from, length) == 0) { slot = s; break; }
        }
        if (slot == slots) {
            table[i] = slot + 1;
            slot_hash[slot] = h;
            memcpy(words.batch + at, r->text + from, length);
            at += length;
            words.batch_offsets[++slots] = at;
        }
        words.unit_slots[k] = slot;
    }
    hb_buffer_t *b = shaping(fw, r, words.batch, at, 0);
    unsigned n;
    const hb_glyph_info_t *g = hb_buffer_get_glyph_infos(b, &n);
    const hb_glyph_position_t *p = hb_buffer_get_glyph_positions(b, NULL);
    if (!hb_buffer_allocation_successful(b)) goto out;
    /* Each unit's glyphs are those of its clusters; each must start one of its own. */
    unsigned first = 0;
    for (unsigned u = 0; u < slots; u++) {
        if (first >= n || g[first].cluster != words.batch_offsets[u]) goto out;
        unsigned last = first;
        while (last < n && g[last].cluster < words.batch_offsets[u + 1]) last++;
        slot_glyph[u] = first;
        first = last;
    }
    if (first != n) goto out;
    slot_glyph[slots] = n;
    for (unsigned u = 0; u < slots; u++) {
        unsigned length = words.batch_offsets[u + 1] - words.batch_offsets[u];
        slot_word[u] = store(fw, words.batch + words.batch_offsets[u], length, 0, slot_hash[u], g + slot_glyph[u],
                             p + slot_glyph[u], slot_glyph[u + 1] - slot_glyph[u], words.batch_offsets[u]);
        if (!slot_word[u]) goto out;
    }
    for (unsigned k = 0; k < count; k++)
        if (!words.units[k]) words.units[k] = slot_word[words.unit_slots[k]];
    *shaped += shim_utf8_chars(words.batch, at);
    done = 1;
out:
    free(table);
    free(slot_hash);
    free(slot_glyph);
    free(slot_word);
    return done;
}

/* What follows a cut's spaces at `p`: a character that starts a cluster of its own and means
 * nothing to HarfBuzz beyond itself (no mark, joiner or other format character). */
static int starts_unit(const unsigned char *p, const unsigned char *end) {
    if (*p < 0x80) return *p > 0x20 && *p != 0x7F;
    hb_codepoint_t c;
    unsigned n;
    if ((*p & 0xE0) == 0xC0) { c = *p & 0x1F; n = 1; }
    else if ((*p & 0xF0) == 0xE0) { c = *p & 0x0F; n = 2; }
    else if ((*p & 0xF8) == 0xF0) { c = *p & 0x07; n = 3; }
    else return 0;
    if (p + n >= end) return 0;
    for (unsigned i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    switch (hb_unicode_general_category(hb_unicode_funcs_get_default(), c)) {
        case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
        case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
        case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
        case HB_UNICODE_GENERAL_CATEGORY_FORMAT:
        case HB_UNICODE_GENERAL_CATEGORY_CONTROL:
        case HB_UNICODE_GENERAL_CATEGORY_SURROGATE:
        case HB_UNICODE_GENERAL_CATEGORY_PRIVATE_USE:
        case HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED:
        case HB_UNICODE_GENERAL_CATEGORY_SPACE_SEPARATOR:
            return 0;
        default:
            return 1;
    }
}

/* A piece begins at the first of the spaces before a word. */
static int cuts_before(const unsigned char *text, unsigned i, unsigned end) {
    if (text[i] != ' ' || text[i - 1] == ' ') return 0;
    unsigned j = i + 1;
    while (j < end && text[j] == ' ') j++;
    return j < end && starts_unit(text + j, text + end);
}

static int global_features(const hb_feature_t *f, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        if (f[i].start != HB_FEATURE_GLOBAL_START || f[i].end != HB_FEATURE_GLOBAL_END) return 0;
    return 1;
}

static int room_for_units(unsigned n) {
    if (n <= words.unit_capacity) return 1;
    unsigned capacity = n * 2;
    word_t **units = realloc(words.units, capacity * sizeof *units);
    if (!units) return 0;
    words.units = units;
    unsigned *starts = realloc(words.unit_starts, capacity * sizeof *starts);
    if (!starts) return 0;
    words.unit_starts = starts;
    unsigned *glyph_starts = realloc(words.unit_slots, capacity * sizeof *glyph_starts);
    if (!glyph_starts) return 0;
    words.unit_slots = glyph_starts;
    words.unit_capacity = capacity;
    return 1;
}

int shim_word_shapes_fill(const shim_word_request *r, hb_buffer_t *buffer, uint64_t *from_words, uint64_t *shaped) {
    hb_segment_properties_t props;
    hb_buffer_get_segment_properties(buffer, &props);
    if (props.direction != HB_DIRECTION_LTR || !default_shaper(props.script)) return 0;
    if (!global_features(r->features, r->feature_count)) return 0;
    pthread_once(&key_once, make_key);
    if (!words.registered) { pthread_setspecific(thread_end, &words); words.registered = 1; }
    if (!words.scratch) words.scratch = hb_buffer_create();
    hb_buffer_flags_t ends = HB_BUFFER_FLAG_BOT | HB_BUFFER_FLAG_EOT;
    font_words_t *fw = font_words(r, buffer, &props, r->flags & ~ends);
    if (!fw || !fw->takes) return 0;
    fw->used = ++words.clock;

    /* Pieces: from the item's start or a cut, to the next cut or the item's end. */
    const unsigned char *text = (const unsigned char *)r->text;
    unsigned count = 0;
    if (!room_for_units(1)) return 0;
    words.unit_starts[count++] = r->start;
    for (unsigned i = r->start + 1; i < r->end; i++) {
        if (!cuts_before(text, i, r->end)) continue;
        if (!room_for_units(count + 1)) return 0;
        words.unit_starts[count++] = i;
    }
    if (count < 2) return 0;

    /* Full, the words start over before the item, never in its middle: its words are in use. */
    if (fw->count + count > MAX_WORDS) free_words(fw);
    unsigned k, glyphs = 0, missing = 0;
    uint64_t now = 0;
    /* The words kept already, and those at the item's ends (shaped as its ends are, alone). */
    for (k = 0; k < count; k++) {
        unsigned from = words.unit_starts[k], to = unit_end(r, k, count);
        hb_buffer_flags_t flags = (k == 0 ? r->flags & HB_BUFFER_FLAG_BOT : 0) | (k + 1 == count ? r->flags & HB_BUFFER_FLAG_EOT : 0);
        word_t *w = flags ? unit(fw, r, r->text + from, to - from, flags, &now)
                          : lookup(fw, r->text + from, to - from, 0, hash_bytes(r->text + from, to - from, 0));
        if (!w && flags) {
            *shaped += now;
            return 0;
        }
        words.units[k] = w;
        missing += !w;
    }
    /* The new words, together where that can be, else one by one. */
    if (missing && !shape_missing(fw, r, count, &now)) {
        for (k = 0; k < count; k++) {
            if (words.units[k]) continue;
            unsigned from = words.unit_starts[k], to = unit_end(r, k, count);
            word_t *w = unit(fw, r, r->text + from, to - from, 0, &now);
            if (!w) {
                *shaped += now;
                return 0;
            }
            words.units[k] = w;
        }
    }
    for (k = 0; k < count; k++) glyphs += words.units[k]->glyph_count;
    /* The buffer becomes the glyphs: emptied, grown to their number, and filled. */
    if (!hb_buffer_set_length(buffer, 0) || !hb_buffer_set_length(buffer, glyphs)) {
        *shaped += now;
        return 0;
    }
    hb_buffer_set_content_type(buffer, HB_BUFFER_CONTENT_TYPE_GLYPHS);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buffer, NULL);
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buffer, NULL);
    unsigned at = 0;
    for (k = 0; k < count; k++) {
        const word_t *w = words.units[k];
        memcpy(pos + at, w->positions, w->glyph_count * sizeof *pos);
        memcpy(info + at, w->infos, w->glyph_count * sizeof *info);
        for (unsigned g = 0; g < w->glyph_count; g++) info[at + g].cluster += words.unit_starts[k];
        at += w->glyph_count;
    }
    *shaped += now;
    *from_words += shim_utf8_chars(r->text + r->start, r->end - r->start) - now;
    return 1;
}
