#ifndef BOOKRENDER_SHIM_PNG_H
#define BOOKRENDER_SHIM_PNG_H
#include <stddef.h>
#include <stdint.h>

/* libpng reports errors by longjmp; these wrappers catch them and return a status plus
 * libpng's message, so nothing unwinds through Swift frames. */

enum {
    SHIM_PNG_OK = 0,
    SHIM_PNG_ERR_ARGUMENT = 1,  /* NULL data, a caller buffer of the wrong size or format */
    SHIM_PNG_ERR_FORMAT = 2,    /* not a PNG, or one libpng rejects */
    SHIM_PNG_ERR_CORRUPT = 3,   /* bad CRC, broken compressed stream, bad chunk */
    SHIM_PNG_ERR_MEMORY = 4,
    SHIM_PNG_ERR_TOO_LARGE = 5, /* larger than a cairo image surface can hold */
    SHIM_PNG_ERR_IO = 6,        /* the output file could not be written */
    SHIM_PNG_ERR_TRUNCATED = 7, /* the data ends before the image does */
};

typedef struct shim_png_image {
    /* In: a destination buffer, or NULL to have the decoder malloc one (release with free()).
     * Out: the buffer holding the pixels. */
    uint8_t *pixels;
    /* In, with a caller buffer: its bytes per row (at least width*4). Out: bytes per row. */
    size_t stride;
    /* In, with a caller buffer: the size it was made for, which must equal the PNG's. Out: size. */
    int width;
    int height;
    /* In, with a caller buffer: 1 when it is ARGB32 and can take alpha, 0 for RGB24.
     * Out: 1 when the PNG has an alpha channel or tRNS transparency. */
    int has_alpha;
} shim_png_image;

/* Decodes any PNG (palette, grey, grey+alpha, RGB, RGBA; 1–16 bits; tRNS; interlaced) into
 * cairo's layout: one native-endian 32-bit word per pixel, premultiplied ARGB32 when the image
 * has alpha, 0xFFRRGGBB (RGB24) when it has none. Gamma and colour profiles are ignored,
 * as cairo's own PNG reader does. */
int shim_png_decode(const uint8_t *data, size_t size, shim_png_image *image,
                    char *message, size_t message_size);

/* Decodes the whole image a row at a time into one row's memory and reads through IEND: every
 * problem `shim_png_decode` would meet (a bad CRC, broken compressed data, too little image
 * data), found without the memory the pixels would take. */
int shim_png_verify(const uint8_t *data, size_t size, char *message, size_t message_size);

/* Writes cairo pixels (RGB24 when has_alpha is 0, premultiplied ARGB32 otherwise) to `path`
 * as an 8-bit RGB or RGBA PNG with a pHYs chunk for `dpi` (none when dpi <= 0) and no tIME,
 * so the same pixels always give the same bytes. A partly written regular file is removed.
 * On SHIM_PNG_ERR_IO, `message` is the reason alone (the system's words): the caller knows what
 * the file is called, which may not be `path` (a temporary file). */
int shim_png_write(const char *path, const uint8_t *pixels, int width, int height, size_t stride,
                   int has_alpha, double dpi, char *message, size_t message_size);

/* Pixels per metre for a resolution in dots per inch, as written to pHYs. */
uint32_t shim_png_pixels_per_metre(double dpi);

#endif
