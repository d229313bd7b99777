/* See shape_cache.h. The cache depends on the exact calls Pango 1.50.12's pango_hb_shape makes
 * (three hb_buffer_add_utf8, maybe an hb_buffer_add, then hb_shape) and on what HarfBuzz 6.0.0's
 * glyph flags promise; another version of either may call differently, so the cache is not trusted
 * there. And the replacement only works if libpango's calls reach the program's definitions, which
 * a different way of linking or loading could change: that is seen, not assumed. */
#include "shape_cache.h"
#include "shape_cache_internal.h"
#include <hb.h>
#include <pango/pango.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PANGO_MAJOR = 1, PANGO_MINOR = 50, PANGO_MICRO = 12, HARFBUZZ_MAJOR = 6, HARFBUZZ_MINOR = 0, HARFBUZZ_MICRO = 0 };

static const char *state = "off";
static char why[256] = "not started";

/* A font without a file: HarfBuzz's empty face, on which shaping gives .notdef glyphs. Enough for
 * Pango to shape with, and it needs no fontconfig. */
typedef struct { PangoFont parent_instance; } ShapeCacheProbeFont;
typedef struct { PangoFontClass parent_class; } ShapeCacheProbeFontClass;
G_DEFINE_TYPE(ShapeCacheProbeFont, shape_cache_probe_font, PANGO_TYPE_FONT)

static PangoFontDescription *probe_describe(PangoFont *font) { (void)font; return pango_font_description_new(); }
static PangoCoverage *probe_coverage(PangoFont *font, PangoLanguage *language) {
    (void)font; (void)language;
    return pango_coverage_new();
}
static void probe_extents(PangoFont *font, PangoGlyph glyph, PangoRectangle *ink, PangoRectangle *logical) {
    (void)font; (void)glyph;
    if (ink) *ink = (PangoRectangle){ 0, 0, 0, 0 };
    if (logical) *logical = (PangoRectangle){ 0, 0, 0, 0 };
}
/* Pango's defaults for a missing font. */
static PangoFontMetrics *probe_metrics(PangoFont *font, PangoLanguage *language) {
    (void)font;
    return pango_font_get_metrics(NULL, language);
}
static PangoFontMap *probe_font_map(PangoFont *font) { (void)font; return NULL; }
static hb_font_t *probe_hb_font(PangoFont *font) { (void)font; return hb_font_create(hb_face_get_empty()); }

static void shape_cache_probe_font_class_init(ShapeCacheProbeFontClass *klass) {
    PangoFontClass *font_class = PANGO_FONT_CLASS(klass);
    font_class->describe = probe_describe;
    font_class->describe_absolute = probe_describe;
    font_class->get_coverage = probe_coverage;
    font_class->get_glyph_extents = probe_extents;
    font_class->get_metrics = probe_metrics;
    font_class->get_font_map = probe_font_map;
    font_class->create_hb_font = probe_hb_font;
}
static void shape_cache_probe_font_init(ShapeCacheProbeFont *font) { (void)font; }

/* Pango shapes one letter; 1 when its HarfBuzz calls reached the program's functions. */
static int replacement_binds(void) {
    PangoFont *font = g_object_new(shape_cache_probe_font_get_type(), NULL);
    PangoAnalysis analysis = { 0 };
    analysis.font = font;
    analysis.gravity = PANGO_GRAVITY_SOUTH;
    analysis.script = PANGO_SCRIPT_LATIN;
    analysis.language = pango_language_from_string("en");
    PangoGlyphString *glyphs = pango_glyph_string_new();
    shape_cache_probe_reset();
    shape_cache_set_mode(SHAPE_CACHE_PROBING);
    pango_shape("a", 1, &analysis, glyphs);
    shape_cache_set_mode(SHAPE_CACHE_OFF);
    int reached = shape_cache_probe_reached() && glyphs->num_glyphs == 1;
    pango_glyph_string_free(glyphs);
    g_object_unref(font);
    return reached;
}

static void print_stats(void) {
    shape_cache_stats s = shape_cache_totals();
    fprintf(stderr,
            "shape cache: state=%s shaped=%llu shapedChars=%llu served=%llu servedChars=%llu wordItems=%llu wordChars=%llu mismatches=%llu",
            state, (unsigned long long)s.shaped, (unsigned long long)s.shapedChars, (unsigned long long)s.served,
            (unsigned long long)s.servedChars, (unsigned long long)s.wordItems, (unsigned long long)s.wordChars,
            (unsigned long long)s.mismatches);
    if (strcmp(state, "off") == 0) fprintf(stderr, " why=\"%s\"", why);
    fputc('\n', stderr);
}

static shape_cache_mode decide(void) {
    const char *setting = getenv("BOOKRENDER_SHAPE_CACHE");
    int verifying = setting && strcmp(setting, "verify") == 0;
    if (setting && strcmp(setting, "0") == 0) {
        snprintf(why, sizeof why, "switched off by BOOKRENDER_SHAPE_CACHE=0");
        return SHAPE_CACHE_OFF;
    }
    if (setting && *setting && strcmp(setting, "1") != 0 && !verifying) {
        snprintf(why, sizeof why, "BOOKRENDER_SHAPE_CACHE=%.64s is not 0, 1 or verify", setting);
        fprintf(stderr, "bookrender: %s; the shaping cache is off\n", why);
        return SHAPE_CACHE_OFF;
    }
    unsigned hb_major, hb_minor, hb_micro;
    hb_version(&hb_major, &hb_minor, &hb_micro);
    int pango = pango_version();
    if (pango != PANGO_VERSION_ENCODE(PANGO_MAJOR, PANGO_MINOR, PANGO_MICRO) ||
        hb_major != HARFBUZZ_MAJOR || hb_minor != HARFBUZZ_MINOR || hb_micro != HARFBUZZ_MICRO) {
        snprintf(why, sizeof why, "Pango %s and HarfBuzz %s, not the Pango %d.%d.%d and HarfBuzz %d.%d.%d it was verified with",
                 pango_version_string(), hb_version_string(), PANGO_MAJOR, PANGO_MINOR, PANGO_MICRO,
                 HARFBUZZ_MAJOR, HARFBUZZ_MINOR, HARFBUZZ_MICRO);
        return SHAPE_CACHE_OFF;
    }
    if (!shape_cache_resolved()) {
        snprintf(why, sizeof why, "HarfBuzz's own hb_shape or hb_buffer_add_utf8 was not found");
        return SHAPE_CACHE_OFF;
    }
    if (!replacement_binds()) {
        snprintf(why, sizeof why, "Pango's shaping does not reach the program's hb_shape and hb_buffer_add_utf8");
        return SHAPE_CACHE_OFF;
    }
    return verifying ? SHAPE_CACHE_VERIFYING : SHAPE_CACHE_ON;
}

void shape_cache_start(void) {
    static int started;
    if (started) return;
    started = 1;
    const char *stats = getenv("BOOKRENDER_SHAPE_CACHE_STATS");
    if (stats && strcmp(stats, "1") == 0) atexit(print_stats);
    shape_cache_mode mode = decide();
    state = mode == SHAPE_CACHE_VERIFYING ? "verifying" : mode == SHAPE_CACHE_ON ? "on" : "off";
    shape_cache_set_mode(mode);
}
