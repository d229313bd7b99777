#include "shim_jpeg.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/* cairo's RGB24/ARGB32 pixel is a native-endian 32-bit word 0xAARRGGBB. The alpha variants are
 * used rather than the X ones because libjpeg-turbo leaves an X byte unwritten, and a malloc'd
 * buffer would then hash differently from run to run; writing 0xFF costs nothing measurable. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SHIM_CAIRO_ORDER JCS_EXT_ARGB
#else
#define SHIM_CAIRO_ORDER JCS_EXT_BGRA
#endif

struct shim_jpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int status;
    int in_image_data; /* past the headers, reading scans */
};

static void set_message(char *message, size_t message_size, const char *text) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", text);
}

static void on_error_exit(j_common_ptr cinfo) {
    struct shim_jpeg_error *err = (struct shim_jpeg_error *)cinfo->err;
    if (err->status == SHIM_JPEG_OK) {
        err->status = cinfo->err->msg_code == JERR_OUT_OF_MEMORY ? SHIM_JPEG_ERR_MEMORY : SHIM_JPEG_ERR_FORMAT;
    }
    longjmp(err->jump, 1);
}

/* libjpeg only warns about damaged data and then fills the rest of the image with grey; a
 * book must not be printed with half a photo, so those warnings abort the decode. */
static int warning_means_damage(const struct shim_jpeg_error *shim) {
    const struct jpeg_error_mgr *err = &shim->pub;
    switch (err->msg_code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_BOGUS_PROGRESSION:
    case JWRN_NOT_SEQUENTIAL:
        return 1;
    case JWRN_EXTRANEOUS_DATA:
        /* Stray bytes between header segments leave the pixels alone, and some cameras and
         * scanners leave a byte or two before the final EOI marker (0xD9). More than a few, or
         * stray bytes before any other marker once the scans have begun, mean the entropy data
         * was damaged: zeroing 64 bytes mid-scan shows up as "38 extraneous bytes before
         * marker 0xd9" and nothing else. */
        if (!shim->in_image_data) return 0;
        return err->msg_parm.i[1] != 0xD9 || err->msg_parm.i[0] > 8;
    default:
        /* Unknown JFIF revision, unknown Adobe transform, a bad ICC chunk: the pixels are fine. */
        return 0;
    }
}

static void on_emit_message(j_common_ptr cinfo, int msg_level) {
    struct shim_jpeg_error *err = (struct shim_jpeg_error *)cinfo->err;
    if (msg_level >= 0) return; /* trace output */
    err->pub.num_warnings++;
    if (warning_means_damage(err)) {
        err->status = err->pub.msg_code == JWRN_JPEG_EOF ? SHIM_JPEG_ERR_TRUNCATED : SHIM_JPEG_ERR_CORRUPT;
        longjmp(err->jump, 1);
    }
}

/* The default prints to stderr; messages are returned to the caller instead. */
static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_error_manager(struct jpeg_decompress_struct *cinfo, struct shim_jpeg_error *err) {
    memset(cinfo, 0, sizeof *cinfo);
    memset(err, 0, sizeof *err);
    cinfo->err = jpeg_std_error(&err->pub);
    err->pub.error_exit = on_error_exit;
    err->pub.emit_message = on_emit_message;
    err->pub.output_message = on_output_message;
    err->status = SHIM_JPEG_OK;
}

static void format_failure(struct jpeg_decompress_struct *cinfo, char *message, size_t message_size) {
    char text[JMSG_LENGTH_MAX];
    text[0] = '\0';
    (*cinfo->err->format_message)((j_common_ptr)cinfo, text);
    set_message(message, message_size, text);
}

static int map_color_space(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return SHIM_JPEG_CS_GRAY;
    case JCS_RGB: return SHIM_JPEG_CS_RGB;
    case JCS_YCbCr: return SHIM_JPEG_CS_YCBCR;
    case JCS_CMYK: return SHIM_JPEG_CS_CMYK;
    case JCS_YCCK: return SHIM_JPEG_CS_YCCK;
    default: return SHIM_JPEG_CS_UNKNOWN;
    }
}

int shim_jpeg_read_info(const uint8_t *data, size_t size, shim_jpeg_info *info,
                        char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct shim_jpeg_error err;
    if (data == NULL || size == 0 || info == NULL || size > ULONG_MAX) {
        set_message(message, message_size, "no JPEG data");
        return SHIM_JPEG_ERR_ARGUMENT;
    }
    install_error_manager(&cinfo, &err);
    if (setjmp(err.jump)) {
        format_failure(&cinfo, message, message_size);
        jpeg_destroy_decompress(&cinfo);
        return err.status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    if (jpeg_read_header(&cinfo, TRUE) != JPEG_HEADER_OK) {
        set_message(message, message_size, "JPEG holds tables but no image");
        jpeg_destroy_decompress(&cinfo);
        return SHIM_JPEG_ERR_FORMAT;
    }
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    info->components = cinfo.num_components;
    info->color_space = map_color_space(cinfo.jpeg_color_space);
    info->bit_depth = cinfo.data_precision;
    info->progressive = cinfo.progressive_mode ? 1 : 0;
    info->adobe_marker = cinfo.saw_Adobe_marker ? 1 : 0;
    info->adobe_transform = cinfo.saw_Adobe_marker ? (int)cinfo.Adobe_transform : -1;
    jpeg_destroy_decompress(&cinfo);
    return SHIM_JPEG_OK;
}

static int scaled(int size, int n) { return (int)(((long long)size * n + 7) / 8); }

int shim_jpeg_scale_for(int width, int height, int min_width, int min_height,
                        int *out_width, int *out_height) {
    int n = 8;
    if (min_width > 0 || min_height > 0) {
        for (n = 1; n < 8; n++) {
            if (scaled(width, n) >= min_width && scaled(height, n) >= min_height) break;
        }
    }
    if (out_width) *out_width = scaled(width, n);
    if (out_height) *out_height = scaled(height, n);
    return n;
}

/* x*y/255 rounded, exact for 0…255 × 0…255. */
static inline uint32_t mul_div255(uint32_t x, uint32_t y) {
    uint32_t t = x * y + 128;
    return (t + (t >> 8)) >> 8;
}

/* A naive conversion with no colour management: r = 255·(1−c)(1−k), and so on. Matching
 * print colour would need the file's ICC profile and a CMS; for PNG previews and for pages that
 * cairo writes as RGB anyway, getting the hues right is enough. Adobe writers store CMYK
 * inverted (0 = full ink), which is exactly the (1−c) term, so only plain CMYK flips. */
static void cmyk_row_to_cairo(const JSAMPLE *in, uint32_t *out, int width, int inverted) {
    for (int x = 0; x < width; x++, in += 4) {
        uint32_t c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        out[x] = 0xFF000000u | (mul_div255(c, k) << 16) | (mul_div255(m, k) << 8) | mul_div255(y, k);
    }
}

#define SHIM_JPEG_ROWS 16

int shim_jpeg_decode(const uint8_t *data, size_t size, int min_width, int min_height,
                     shim_jpeg_image *image, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct shim_jpeg_error err;
    uint8_t *volatile allocated = NULL;
    JSAMPLE *volatile cmyk_rows = NULL;
    if (data == NULL || size == 0 || image == NULL || size > ULONG_MAX) {
        set_message(message, message_size, "no JPEG data");
        return SHIM_JPEG_ERR_ARGUMENT;
    }
    install_error_manager(&cinfo, &err);
    if (setjmp(err.jump)) {
        int status = err.status == SHIM_JPEG_OK ? SHIM_JPEG_ERR_FORMAT : err.status;
        format_failure(&cinfo, message, message_size);
        jpeg_destroy_decompress(&cinfo);
        if (allocated != NULL) {
            free(allocated);
            image->pixels = NULL;
        }
        free(cmyk_rows);
        return status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    if (jpeg_read_header(&cinfo, TRUE) != JPEG_HEADER_OK) {
        set_message(message, message_size, "JPEG holds tables but no image");
        jpeg_destroy_decompress(&cinfo);
        return SHIM_JPEG_ERR_FORMAT;
    }

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    int inverted = cmyk && cinfo.saw_Adobe_marker;
    int want_width = 0, want_height = 0;
    cinfo.scale_num = (unsigned int)shim_jpeg_scale_for((int)cinfo.image_width, (int)cinfo.image_height,
                                                        min_width, min_height, &want_width, &want_height);
    cinfo.scale_denom = 8;
    /* libjpeg turns YCCK into CMYK itself; CMYK to RGB is not among its conversions. */
    cinfo.out_color_space = cmyk ? JCS_CMYK : SHIM_CAIRO_ORDER;
    jpeg_calc_output_dimensions(&cinfo);
    err.in_image_data = 1;
    int width = (int)cinfo.output_width, height = (int)cinfo.output_height;

    const char *problem = NULL;
    int status = SHIM_JPEG_OK;
    if (width != want_width || height != want_height) {
        problem = "libjpeg chose an unexpected scaled size";
        status = SHIM_JPEG_ERR_FORMAT;
    } else if (width > SHIM_IMAGE_MAX_DIMENSION || height > SHIM_IMAGE_MAX_DIMENSION) {
        problem = "JPEG is larger than 32767 pixels on a side";
        status = SHIM_JPEG_ERR_TOO_LARGE;
    } else if (image->pixels != NULL &&
               (image->width != width || image->height != height || image->stride < (size_t)width * 4)) {
        problem = "destination buffer does not match the decoded size";
        status = SHIM_JPEG_ERR_ARGUMENT;
    }
    if (problem == NULL && image->pixels == NULL) {
        size_t stride = (size_t)width * 4;
        allocated = malloc(stride * (size_t)height);
        if (allocated == NULL) {
            problem = "out of memory for the decoded JPEG";
            status = SHIM_JPEG_ERR_MEMORY;
        } else {
            image->pixels = allocated;
            image->stride = stride;
        }
    }
    if (problem != NULL) {
        set_message(message, message_size, problem);
        jpeg_destroy_decompress(&cinfo);
        return status;
    }
    uint8_t *pixels = image->pixels;
    size_t stride = image->stride;

    jpeg_start_decompress(&cinfo);
    int batch = cinfo.rec_outbuf_height > 0 && cinfo.rec_outbuf_height < SHIM_JPEG_ROWS ? cinfo.rec_outbuf_height : 1;
    if (cmyk) {
        cmyk_rows = malloc((size_t)width * 4 * (size_t)SHIM_JPEG_ROWS);
        if (cmyk_rows == NULL) {
            err.status = SHIM_JPEG_ERR_MEMORY;
            ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
        }
        batch = SHIM_JPEG_ROWS;
    }
    JSAMPROW rows[SHIM_JPEG_ROWS];
    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION first = cinfo.output_scanline;
        int count = batch;
        if ((JDIMENSION)count > cinfo.output_height - first) count = (int)(cinfo.output_height - first);
        for (int i = 0; i < count; i++) {
            rows[i] = cmyk ? cmyk_rows + (size_t)i * (size_t)width * 4 : pixels + (size_t)(first + (JDIMENSION)i) * stride;
        }
        JDIMENSION got = jpeg_read_scanlines(&cinfo, rows, (JDIMENSION)count);
        if (cmyk) {
            for (JDIMENSION i = 0; i < got; i++) {
                cmyk_row_to_cairo(rows[i], (uint32_t *)(void *)(pixels + (size_t)(first + i) * stride), width, inverted);
            }
        }
        if (got == 0) break;
    }
    jpeg_finish_decompress(&cinfo);
    image->width = width;
    image->height = height;
    image->scale_num = (int)cinfo.scale_num;
    jpeg_destroy_decompress(&cinfo);
    free(cmyk_rows);
    return SHIM_JPEG_OK;
}

int shim_jpeg_encode(const uint8_t *pixels, size_t stride, int width, int height, int quality,
                     uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    struct jpeg_compress_struct cinfo;
    struct shim_jpeg_error err;
    /* jpeg_mem_dest writes through their addresses, so they live in memory, not registers that
     * longjmp would restore. */
    unsigned char *target = NULL;
    unsigned long size = 0;
    memset(&err, 0, sizeof err);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error_exit;
    if (setjmp(err.jump)) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, text);
        set_message(message, message_size, text);
        jpeg_destroy_compress(&cinfo);
        free(target);
        return err.status == SHIM_JPEG_OK ? SHIM_JPEG_ERR_FORMAT : err.status;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &target, &size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = SHIM_CAIRO_ORDER;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = target;
    *out_size = (size_t)size;
    return SHIM_JPEG_OK;
}
