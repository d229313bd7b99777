#ifndef BOOKRENDER_SHIM_JPEG_H
#define BOOKRENDER_SHIM_JPEG_H
#include <stddef.h>
#include <stdint.h>

/* libjpeg reports fatal errors by calling exit(), which Swift cannot intercept; these wrappers
 * recover with setjmp and hand back a status plus libjpeg's own message instead. */

enum {
    SHIM_JPEG_OK = 0,
    SHIM_JPEG_ERR_ARGUMENT = 1,  /* NULL data, zero size, or a caller buffer of the wrong size */
    SHIM_JPEG_ERR_FORMAT = 2,    /* libjpeg rejected the data (bad header, unsupported feature) */
    SHIM_JPEG_ERR_CORRUPT = 3,   /* corrupt data that libjpeg would only warn about */
    SHIM_JPEG_ERR_MEMORY = 4,
    SHIM_JPEG_ERR_TOO_LARGE = 5, /* output larger than a cairo image surface can hold */
    SHIM_JPEG_ERR_TRUNCATED = 6, /* the data ends before the image does */
};

/* The colour space the compressed data is in, as libjpeg infers it from JFIF/Adobe markers. */
enum {
    SHIM_JPEG_CS_UNKNOWN = 0,
    SHIM_JPEG_CS_GRAY = 1,
    SHIM_JPEG_CS_RGB = 2,
    SHIM_JPEG_CS_YCBCR = 3,
    SHIM_JPEG_CS_CMYK = 4,
    SHIM_JPEG_CS_YCCK = 5,
};

/* The largest width or height a cairo image surface accepts. */
#define SHIM_IMAGE_MAX_DIMENSION 32767

typedef struct shim_jpeg_info {
    int width;
    int height;
    int components;
    int color_space;      /* SHIM_JPEG_CS_* */
    int bit_depth;        /* data precision; always 8 with this libjpeg build */
    int progressive;
    int adobe_marker;     /* an Adobe APP14 marker was seen */
    int adobe_transform;  /* its transform code (0 none, 1 YCbCr, 2 YCCK), -1 without the marker */
} shim_jpeg_info;

/* Reads only the headers (up to the first scan); decodes no pixels.
 * `message` (may be NULL) receives libjpeg's text on failure. */
int shim_jpeg_read_info(const uint8_t *data, size_t size, shim_jpeg_info *info,
                        char *message, size_t message_size);

/* The DCT scale n (of n/8, 1…8) that decodes the fewest pixels while keeping at least
 * min_width × min_height (0 = no minimum), and the output size it gives. Matches the size
 * libjpeg computes, so a caller can allocate the destination before decoding. */
int shim_jpeg_scale_for(int width, int height, int min_width, int min_height,
                        int *out_width, int *out_height);

typedef struct shim_jpeg_image {
    /* In: a destination buffer, or NULL to have the decoder malloc one (release with free()).
     * Out: the buffer holding the pixels. */
    uint8_t *pixels;
    /* In, with a caller buffer: its bytes per row (at least width*4). Out: bytes per row. */
    size_t stride;
    /* In, with a caller buffer: the size it was made for, which must equal the scaled output
     * size. Out: the decoded size. */
    int width;
    int height;
    int scale_num;        /* out: n of the n/8 DCT scale used */
} shim_jpeg_image;

/* Decodes to cairo's CAIRO_FORMAT_RGB24 layout (one native-endian 32-bit word per pixel,
 * 0xFFRRGGBB), scaled down by the DCT to the smallest size ≥ min_width × min_height.
 * Grey, RGB and YCbCr convert inside libjpeg; CMYK and YCCK are converted here. */
int shim_jpeg_decode(const uint8_t *data, size_t size, int min_width, int min_height,
                     shim_jpeg_image *image, char *message, size_t message_size);

/* Encodes cairo's RGB24 pixels (as above) as a baseline JPEG of the given quality (1-100), into a
 * buffer the caller releases with free(). */
int shim_jpeg_encode(const uint8_t *pixels, size_t stride, int width, int height, int quality,
                     uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
