#ifndef BOOKRENDER_SHAPE_CACHE_INTERNAL_H
#define BOOKRENDER_SHAPE_CACHE_INTERNAL_H
#include <stdint.h>

/* Pango 1.50 breaks a paragraph into lines by shaping it whole, then shaping again, from the line's
 * start, every candidate break near the margin (and the last line once more): about three and a half
 * times the text in all. shape_cache.c defines HarfBuzz's hb_shape and hb_buffer_add_utf8 in the
 * program (the program's own definitions come first when libpango looks them up) and, when the
 * start-up check (shape_cache_start.c) switches it on, serves those later calls from the whole
 * item's shaping, where HarfBuzz's glyph flags say that gives exactly what shaping again would:
 * - a piece between two cluster starts that are not HB_GLYPH_FLAG_UNSAFE_TO_BREAK is the slice of
 *   the glyphs already shaped;
 * - a piece that ends in an inserted hyphen is that slice up to the last cluster start before the
 *   hyphen that is not HB_GLYPH_FLAG_UNSAFE_TO_CONCAT, and the short rest shaped anew (the way
 *   hb-buffer.h describes for hyphenation).
 * A whole item of space-separated text is put together from the glyphs of its words, each shaped
 * once per thread, where the flags say the words' glyphs fit together exactly (word_shapes.c).
 * Anything else is shaped by HarfBuzz as before. One cache per thread, holding the last few items
 * shaped and the words seen. Switched off, both functions only hand the call on to HarfBuzz. */

typedef enum {
    SHAPE_CACHE_OFF,        /* every call goes straight to HarfBuzz */
    SHAPE_CACHE_PROBING,    /* the same, noting that libpango's calls reached the program's functions */
    SHAPE_CACHE_ON,
    SHAPE_CACHE_VERIFYING,  /* on, and every call served is also shaped anew and compared */
} shape_cache_mode;

typedef struct {
    uint64_t shaped;        /* calls HarfBuzz shaped whole */
    uint64_t shapedChars;   /* characters HarfBuzz shaped: those calls', and words' seen for the first time */
    uint64_t served;        /* calls served from the cache, a hyphen tail shaped anew included */
    uint64_t servedChars;   /* characters not shaped again thanks to it */
    uint64_t wordItems;     /* whole items put together from their words */
    uint64_t wordChars;     /* their characters from words shaped before */
    uint64_t mismatches;    /* while verifying: served calls or items whose glyphs differ from shaping anew */
} shape_cache_stats;

/* Only before any thread but the first uses Pango. */
void shape_cache_set_mode(shape_cache_mode mode);
/* HarfBuzz's own functions were found behind the program's. */
int shape_cache_resolved(void);
/* While probing: both of libpango's calls reached the program's functions since the reset. */
void shape_cache_probe_reset(void);
int shape_cache_probe_reached(void);
/* Counts over all threads since the process started. */
shape_cache_stats shape_cache_totals(void);

#endif
