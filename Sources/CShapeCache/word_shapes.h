#ifndef BOOKRENDER_WORD_SHAPES_H
#define BOOKRENDER_WORD_SHAPES_H
/* The word cache behind shape_cache.c: a whole item of space-separated text put together from
 * the glyphs of its words, each shaped once per thread, where HarfBuzz's flags say that is exactly
 * what shaping the item whole gives. */
#include <hb.h>
#include <stdint.h>

typedef void (*shim_hb_shape_fn)(hb_font_t *, hb_buffer_t *, const hb_feature_t *, unsigned);
typedef void (*shim_hb_add_utf8_fn)(hb_buffer_t *, const char *, int, unsigned, int);

typedef struct {
    shim_hb_shape_fn shape;        /* HarfBuzz's own */
    shim_hb_add_utf8_fn add_utf8;  /* HarfBuzz's own */
    hb_font_t *font;               /* what the glyphs are kept under: Pango's font, the shaping font's parent */
    hb_font_t *shaping_font;
    const hb_feature_t *features;
    unsigned feature_count;
    const char *text;
    unsigned start, end;           /* the item, in bytes of text */
    hb_buffer_flags_t flags;       /* as the caller set them */
} shim_word_request;

/* Fills `buffer` (holding the item's characters, to be shaped with `request->flags` |
 * HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT) with the item's glyphs, positions and glyph flags put
 * together from its words, and returns 1; returns 0, the buffer untouched, when that would not be
 * exact or the item is not one it takes (then the caller shapes it whole). `from_words` and
 * `shaped` get the characters taken from words shaped before and those shaped now. */
int shim_word_shapes_fill(const shim_word_request *request, hb_buffer_t *buffer, uint64_t *from_words, uint64_t *shaped);

/* Characters (UTF-8 lead bytes) in `n` bytes at `p`. */
unsigned shim_utf8_chars(const char *p, unsigned n);

#endif
