#ifndef BOOKRENDER_SHIM_PNG_RGBA_H
#define BOOKRENDER_SHIM_PNG_RGBA_H
#include <stddef.h>
#include <stdint.h>

/* Straight (un-premultiplied) 8-bit RGBA in and out, for pixel comparison: premultiplying, as the
 * cairo-layout decoder does, rounds away colour in translucent pixels and would hide differences.
 * Status codes are the SHIM_PNG_* ones from shim_png.h. */

/* Reads only the header: the pixel size of the PNG in `data`. */
int shim_png_rgba_size(const uint8_t *data, size_t size, int *width, int *height,
                       char *message, size_t message_size);

/* Decodes any PNG (palette, grey, alpha, tRNS, 1–16 bits, interlaced) into `pixels`, which must
 * hold width*height*4 bytes for the size shim_png_rgba_size reported: R, G, B, A per pixel, rows
 * top to bottom, no padding, alpha 255 when the PNG has none. `has_alpha` (may be NULL) receives 1
 * when the PNG has an alpha channel or tRNS. Gamma and colour profiles are ignored. */
int shim_png_rgba_decode(const uint8_t *data, size_t size, uint8_t *pixels, size_t capacity,
                         int *has_alpha, char *message, size_t message_size);

/* Writes width*height straight RGBA pixels (rows of width*4 bytes) to `path` as an 8-bit PNG:
 * RGBA when `keep_alpha` is 1, RGB (alpha dropped) when 0. No pHYs, no tIME. A partly written
 * regular file is removed. */
int shim_png_rgba_write(const char *path, const uint8_t *pixels, int width, int height, int keep_alpha,
                        char *message, size_t message_size);
#endif
