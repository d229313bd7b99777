#ifndef BOOKRENDER_SHIM_CMYK_H
#define BOOKRENDER_SHIM_CMYK_H
#include <stddef.h>
#include <stdint.h>

/* Pictures converted to a printer's CMYK with Little CMS (liblcms2) and stored as CMYK JPEGs. */

/* An sRGB-to-CMYK transform into `profile` (an ICC output profile, CMYK), perceptual intent,
 * from cairo's native-endian 0xAARRGGBB words to 8-bit CMYK (0 = no ink). Safe to use from
 * several threads at once (made without lcms's one-pixel cache). NULL when the profile is not a
 * usable CMYK output profile, with lcms's reason in `message`. */
void *shim_cmyk_transform_new(const uint8_t *profile, size_t size, char *message, size_t message_size);
void shim_cmyk_transform_free(void *transform);

/* Holds every colour and pixel `shim_cmyk_convert` and `shim_cmyk_convert_rgb8` give to `percent`
 * of total ink (cyan, magenta and yellow in proportion, black kept); 0 for no limit. Set before
 * the transform is shared between threads. */
void shim_cmyk_transform_set_ink_limit(void *transform, double percent);

/* One colour, RGB 0…1 in, CMYK 0…1 out, through the same profile but in floating point. */
void shim_cmyk_convert(void *transform, double r, double g, double b, double cmyk[4]);

/* `count` pixels of 8-bit RGB converted to 8-bit CMYK through the same profile. */
void shim_cmyk_convert_rgb8(void *transform, const unsigned char *rgb, unsigned char *cmyk, size_t count);

/* `pixels` (cairo words, `stride` bytes a row, alpha ignored: opaque pictures only) converted
 * through `transform` and compressed as a baseline JPEG of `quality` (1…100) as Adobe writes CMYK:
 * YCCK with an Adobe marker, values inverted (0 full ink), so a PDF shows it as DeviceCMYK with
 * /Decode [1 0 1 0 1 0 1 0]. With `ink_limit` (percent, > 0) no pixel of the file, decoded,
 * carries more ink than that. Returns 0 with the file in `*out` (malloc'ed, the caller frees it),
 * or an SHIM_JPEG_* status with the reason. */
int shim_cmyk_jpeg_encode(void *transform, const uint8_t *pixels, size_t stride, int width, int height, int quality,
                          double ink_limit, uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
