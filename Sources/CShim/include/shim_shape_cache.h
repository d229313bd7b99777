#ifndef BOOKRENDER_SHIM_SHAPE_CACHE_H
#define BOOKRENDER_SHIM_SHAPE_CACHE_H
#include <stdint.h>

/* Pango 1.50 breaks a paragraph into lines by shaping it whole, then shaping again, from the line's
 * start, every candidate break near the margin (and the last line once more): about three and a half
 * times the text in all. shim_shape_cache.c stands in for HarfBuzz's hb_shape (the program's own
 * definition comes first when libpango looks it up) and serves those later calls from the whole
 * item's shaping, where HarfBuzz's glyph flags say that gives exactly what shaping again would:
 * - a piece between two cluster starts that are not HB_GLYPH_FLAG_UNSAFE_TO_BREAK is the slice of
 *   the glyphs already shaped;
 * - a piece that ends in an inserted hyphen is that slice up to the last cluster start before the
 *   hyphen that is not HB_GLYPH_FLAG_UNSAFE_TO_CONCAT, and the short rest shaped anew (the way
 *   hb-buffer.h describes for hyphenation).
 * A whole item of space-separated text is put together from the glyphs of its words, each shaped
 * once per thread, where the flags say the words' glyphs fit together exactly (shim_word_shapes.c).
 * Anything else is shaped by HarfBuzz as before. One cache per thread, holding the last few items
 * shaped and the words seen. */

typedef struct {
    uint64_t shaped;        /* calls HarfBuzz shaped whole */
    uint64_t shapedChars;   /* characters HarfBuzz shaped: those calls', and words' seen for the first time */
    uint64_t served;        /* calls served from the cache, a hyphen tail shaped anew included */
    uint64_t servedChars;   /* characters not shaped again thanks to it */
    uint64_t wordItems;     /* whole items put together from their words */
    uint64_t wordChars;     /* their characters from words shaped before */
    uint64_t mismatches;    /* while verifying: served calls or items whose glyphs differ from shaping anew */
} shim_shape_cache_stats;

/* On by default. For this thread only. */
void shim_shape_cache_set_enabled(int enabled);
/* Also shapes every served call anew and counts the differences. For this thread only. */
void shim_shape_cache_set_verifying(int verifying);
/* This thread's counts since it started. */
shim_shape_cache_stats shim_shape_cache_thread_stats(void);

#endif
