#include "shim_cmyk.h"
#include "shim_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <lcms2.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SHIM_CMYK_CAIRO_TYPE TYPE_ARGB_8
#else
#define SHIM_CMYK_CAIRO_TYPE TYPE_BGRA_8
#endif

typedef struct {
    cmsHTRANSFORM pixels;
    cmsHTRANSFORM rgb8;
    cmsHTRANSFORM colours;
    /* Percent of total ink no converted colour or pixel passes; 0 for none. */
    double ink_limit;
} shim_cmyk_transform;

static void set_message(char *message, size_t message_size, const char *text) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", text);
}

/* lcms reports through a process-wide handler; a context of our own keeps its messages here. */
static _Thread_local char lcms_message[256];
static void on_lcms_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context; (void)code;
    snprintf(lcms_message, sizeof lcms_message, "%s", text);
}

void *shim_cmyk_transform_new(const uint8_t *profile, size_t size, char *message, size_t message_size) {
    lcms_message[0] = '\0';
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (context == NULL) {
        set_message(message, message_size, "out of memory for a colour transform");
        return NULL;
    }
    cmsSetLogErrorHandlerTHR(context, on_lcms_error);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    cmsHPROFILE cmyk = cmsOpenProfileFromMemTHR(context, profile, (cmsUInt32Number)size);
    shim_cmyk_transform *t = NULL;
    if (srgb == NULL || cmyk == NULL) {
        set_message(message, message_size, lcms_message[0] ? lcms_message : "the press profile is not an ICC profile");
    } else if (cmsGetColorSpace(cmyk) != cmsSigCmykData || cmsGetDeviceClass(cmyk) != cmsSigOutputClass) {
        set_message(message, message_size, "the press profile is not a CMYK output profile");
    } else {
        t = calloc(1, sizeof *t);
        if (t != NULL) {
            t->pixels = cmsCreateTransformTHR(context, srgb, SHIM_CMYK_CAIRO_TYPE, cmyk, TYPE_CMYK_8, INTENT_PERCEPTUAL,
                                              cmsFLAGS_NOCACHE);
            t->rgb8 = cmsCreateTransformTHR(context, srgb, TYPE_RGB_8, cmyk, TYPE_CMYK_8, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE);
            t->colours = cmsCreateTransformTHR(context, srgb, TYPE_RGB_DBL, cmyk, TYPE_CMYK_DBL, INTENT_PERCEPTUAL,
                                               cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE);
            if (t->pixels == NULL || t->rgb8 == NULL || t->colours == NULL) {
                set_message(message, message_size, lcms_message[0] ? lcms_message : "lcms could not make the transform");
                if (t->pixels) cmsDeleteTransform(t->pixels);
                if (t->rgb8) cmsDeleteTransform(t->rgb8);
                if (t->colours) cmsDeleteTransform(t->colours);
                free(t);
                t = NULL;
            }
        }
    }
    if (srgb) cmsCloseProfile(srgb);
    if (cmyk) cmsCloseProfile(cmyk);
    /* The transforms keep what they need of the context; it is not freed while they live, and
     * one context per transform costs a few hundred bytes. */
    if (t == NULL) cmsDeleteContext(context);
    return t;
}

void shim_cmyk_transform_set_ink_limit(void *transform, double percent) {
    ((shim_cmyk_transform *)transform)->ink_limit = percent > 0 ? percent : 0;
}

void shim_cmyk_transform_free(void *transform) {
    shim_cmyk_transform *t = transform;
    if (t == NULL) return;
    cmsContext context = cmsGetTransformContextID(t->pixels);
    cmsDeleteTransform(t->pixels);
    cmsDeleteTransform(t->rgb8);
    cmsDeleteTransform(t->colours);
    cmsDeleteContext(context);
    free(t);
}

void shim_cmyk_convert(void *transform, double r, double g, double b, double cmyk[4]) {
    shim_cmyk_transform *t = transform;
    double rgb[3] = {r, g, b}, out[4];
    cmsDoTransform(t->colours, rgb, out, 1);
    for (int i = 0; i < 4; i++) {
        double v = out[i] / 100.0;
        cmyk[i] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
    /* Between the profile's grid points a colour can land a little over the limit the grid holds:
     * cyan, magenta and yellow shrink in proportion, black stays. */
    double limit = t->ink_limit / 100.0, cmy = cmyk[0] + cmyk[1] + cmyk[2];
    if (limit > 0 && cmy > 0 && cmy + cmyk[3] > limit) {
        double room = limit - cmyk[3] > 0 ? limit - cmyk[3] : 0;
        for (int i = 0; i < 3; i++) cmyk[i] *= room / cmy;
    }
}

/* `count` CMYK pixels (0 no ink) held to `clamp` (sum of the four channels, 0…1020), as
 * `shim_cmyk_convert` holds a colour. */
static void clamp_pixels(uint8_t *cmyk, size_t count, int clamp) {
    for (size_t i = 0; i < count; i++, cmyk += 4) {
        int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        int cmy = c + m + y;
        if (cmy > 0 && cmy + k > clamp) {
            int room = clamp - k > 0 ? clamp - k : 0;
            cmyk[0] = (uint8_t)(c * room / cmy); cmyk[1] = (uint8_t)(m * room / cmy); cmyk[2] = (uint8_t)(y * room / cmy);
        }
    }
}

void shim_cmyk_convert_rgb8(void *transform, const unsigned char *rgb, unsigned char *cmyk, size_t count) {
    shim_cmyk_transform *t = transform;
    while (count > 0) {
        cmsUInt32Number n = count > 1u << 20 ? 1u << 20 : (cmsUInt32Number)count;
        cmsDoTransform(t->rgb8, rgb, cmyk, n);
        if (t->ink_limit > 0) clamp_pixels(cmyk, n, (int)(t->ink_limit * 1020 / 400));
        rgb += (size_t)n * 3;
        cmyk += (size_t)n * 4;
        count -= n;
    }
}

struct shim_cmyk_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
};

static void on_error_exit(j_common_ptr cinfo) {
    longjmp(((struct shim_cmyk_error *)cinfo->err)->jump, 1);
}
static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* The pixel's ink held to `clamp` (sum of the four channels, 0…1020): cyan, magenta and yellow
 * shrink in proportion and black stays, as `ICCProfile.inkLimited` holds the profile's grid. */
static void clamp_row(const uint8_t *in, uint8_t *out, int width, int clamp) {
    for (int x = 0; x < width; x++, in += 4, out += 4) {
        int c = in[0], m = in[1], y = in[2], k = in[3];
        int cmy = c + m + y;
        if (clamp > 0 && cmy + k > clamp) {
            int room = clamp - k > 0 ? clamp - k : 0;
            c = c * room / cmy; m = m * room / cmy; y = y * room / cmy;
        }
        /* Adobe's convention for CMYK in JPEG: 0 is full ink. */
        out[0] = (uint8_t)(255 - c); out[1] = (uint8_t)(255 - m); out[2] = (uint8_t)(255 - y); out[3] = (uint8_t)(255 - k);
    }
}

/* One JPEG of `cmyk` (ink values) held to `clamp`: malloc'ed into *out, or a status. */
static int encode(const uint8_t *cmyk, int width, int height, int quality, int clamp, uint8_t **out, size_t *out_size,
                  char *message, size_t message_size) {
    struct jpeg_compress_struct cinfo;
    struct shim_cmyk_error err;
    unsigned char *volatile dest = NULL;
    unsigned long dest_size = 0;
    uint8_t *volatile row = NULL;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error_exit;
    err.pub.output_message = on_output_message;
    if (setjmp(err.jump)) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, text);
        set_message(message, message_size, text);
        int status = cinfo.err->msg_code == JERR_OUT_OF_MEMORY ? SHIM_JPEG_ERR_MEMORY : SHIM_JPEG_ERR_FORMAT;
        jpeg_destroy_compress(&cinfo);
        free(dest);
        free(row);
        return status;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&dest, &dest_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    /* YCCK, as Adobe writes CMYK JPEGs: the colour's brightness at full resolution, its hue at
     * half, as in the RGB pictures it comes from, and black at full resolution. */
    jpeg_set_colorspace(&cinfo, JCS_YCCK);
    cinfo.write_Adobe_marker = TRUE;
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    cinfo.dct_method = JDCT_ISLOW;
    row = malloc((size_t)width * 4);
    if (row == NULL) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        clamp_row(cmyk + (size_t)cinfo.next_scanline * (size_t)width * 4, row, width, clamp);
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(row);
    *out = dest;
    *out_size = dest_size;
    return SHIM_JPEG_OK;
}

/* The most ink (sum of the four channels, 0…1020) a pixel of the JPEG carries once decoded, or
 * -1 when it does not decode. */
static int most_ink(const uint8_t *jpeg, size_t size) {
    struct jpeg_decompress_struct cinfo;
    struct shim_cmyk_error err;
    uint8_t *volatile row = NULL;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error_exit;
    err.pub.output_message = on_output_message;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(row);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, jpeg, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_CMYK;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&cinfo);
    row = malloc((size_t)cinfo.output_width * 4);
    if (row == NULL) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
    int most = 0;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[1] = {row};
        jpeg_read_scanlines(&cinfo, rows, 1);
        for (JDIMENSION x = 0; x < cinfo.output_width; x++) {
            const uint8_t *p = row + 4 * x;
            int sum = 1020 - p[0] - p[1] - p[2] - p[3];
            if (sum > most) most = sum;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    return most;
}

int shim_cmyk_jpeg_encode(void *transform, const uint8_t *pixels, size_t stride, int width, int height, int quality,
                          double ink_limit, uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    shim_cmyk_transform *t = transform;
    if (t == NULL || pixels == NULL || width <= 0 || height <= 0 || out == NULL || out_size == NULL) {
        set_message(message, message_size, "no picture to convert");
        return SHIM_JPEG_ERR_ARGUMENT;
    }
    uint8_t *cmyk = malloc((size_t)width * (size_t)height * 4);
    if (cmyk == NULL) {
        set_message(message, message_size, "out of memory for the picture in CMYK");
        return SHIM_JPEG_ERR_MEMORY;
    }
    for (int y = 0; y < height; y++) {
        cmsDoTransform(t->pixels, pixels + (size_t)y * stride, cmyk + (size_t)y * (size_t)width * 4, (cmsUInt32Number)width);
    }
    /* Compression moves each value a little, most at edges: the file is decoded and measured,
     * and made again held lower by what went over, until no pixel carries more than the limit. */
    int target = ink_limit > 0 ? (int)(ink_limit * 1020 / 400) : 0;
    int clamp = target;
    int status = SHIM_JPEG_OK;
    for (int attempt = 0;; attempt++) {
        uint8_t *jpeg = NULL;
        size_t size = 0;
        status = encode(cmyk, width, height, quality, clamp, &jpeg, &size, message, message_size);
        if (status != SHIM_JPEG_OK) break;
        int most = target > 0 ? most_ink(jpeg, size) : 0;
        if (most < 0) {
            free(jpeg);
            set_message(message, message_size, "the CMYK JPEG made does not decode");
            status = SHIM_JPEG_ERR_FORMAT;
            break;
        }
        if (most <= target || attempt == 8) {
            if (most > target) {
                free(jpeg);
                set_message(message, message_size, "the picture's ink cannot be held under the limit");
                status = SHIM_JPEG_ERR_FORMAT;
                break;
            }
            *out = jpeg;
            *out_size = size;
            break;
        }
        free(jpeg);
        clamp -= most - target + 1;
    }
    free(cmyk);
    return status;
}
