#include "shim_png.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <png.h>
#include "shim_png_common.h"

/* Overridable only so the choice below can be re-measured with -D. */
#ifndef SHIM_PNG_ZLIB_LEVEL
#define SHIM_PNG_ZLIB_LEVEL 1
#endif
#ifndef SHIM_PNG_FILTERS
#define SHIM_PNG_FILTERS PNG_FILTER_UP
#endif

/* x*y/255 rounded, exact for 0…255 × 0…255. */
static inline uint32_t mul_div255(uint32_t x, uint32_t y) {
    uint32_t t = x * y + 128;
    return (t + (t >> 8)) >> 8;
}

/* Rewrites a row of 8-bit RGBA bytes in place as cairo words; both are 4 bytes a pixel. */
static void rgba_row_to_cairo(uint8_t *row, int width, int premultiply) {
    uint32_t *out = (uint32_t *)(void *)row;
    for (int x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * 4;
        uint32_t r = p[0], g = p[1], b = p[2], a = p[3];
        if (premultiply && a != 255) {
            r = mul_div255(r, a);
            g = mul_div255(g, a);
            b = mul_div255(b, a);
        }
        out[x] = (a << 24) | (r << 16) | (g << 8) | b;
    }
}

int shim_png_decode(const uint8_t *data, size_t size, shim_png_image *image,
                    char *message, size_t message_size) {
    if (data == NULL || image == NULL) {
        shim_png_set_message(message, message_size, "no PNG data");
        return SHIM_PNG_ERR_ARGUMENT;
    }
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        shim_png_set_message(message, message_size, "not a PNG (bad signature)");
        return SHIM_PNG_ERR_FORMAT;
    }
    if (size >= 24) {
        uint32_t width = ((uint32_t)data[16] << 24) | ((uint32_t)data[17] << 16) | ((uint32_t)data[18] << 8) | data[19];
        uint32_t height = ((uint32_t)data[20] << 24) | ((uint32_t)data[21] << 16) | ((uint32_t)data[22] << 8) | data[23];
        if (width > SHIM_PNG_MAX_DIMENSION || height > SHIM_PNG_MAX_DIMENSION) {
            char text[128];
            snprintf(text, sizeof text, "PNG is %u×%u, larger than 32767 pixels on a side", width, height);
            shim_png_set_message(message, message_size, text);
            return SHIM_PNG_ERR_TOO_LARGE;
        }
    }
    struct shim_png_failure failure;
    memset(&failure, 0, sizeof failure);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, shim_png_on_error, shim_png_on_warning);
    if (png == NULL) {
        shim_png_set_message(message, message_size, "out of memory for the PNG reader");
        return SHIM_PNG_ERR_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        shim_png_set_message(message, message_size, "out of memory for the PNG reader");
        return SHIM_PNG_ERR_MEMORY;
    }
    struct shim_png_memory_reader reader = {data, size, 0};
    uint8_t *volatile allocated = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        if (allocated != NULL) {
            free(allocated);
            image->pixels = NULL;
        }
        free(rows);
        shim_png_set_message(message, message_size, failure.message[0] ? failure.message : "PNG decoding failed");
        return failure.status == SHIM_PNG_OK ? SHIM_PNG_ERR_CORRUPT : failure.status;
    }
    shim_png_start_reading(png, info, &reader);
    png_uint_32 width = 0, height = 0;
    int has_alpha = shim_png_expand_to_rgba8(png, info, &width, &height);

    const char *problem = NULL;
    int status = SHIM_PNG_OK;
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        problem = "PNG row layout after expansion is not 8-bit RGBA";
        status = SHIM_PNG_ERR_FORMAT;
    } else if (image->pixels != NULL &&
               ((png_uint_32)image->width != width || (png_uint_32)image->height != height ||
                image->stride < (size_t)width * 4)) {
        problem = "destination buffer does not match the PNG's size";
        status = SHIM_PNG_ERR_ARGUMENT;
    } else if (image->pixels != NULL && has_alpha && !image->has_alpha) {
        problem = "destination buffer has no alpha but the PNG does";
        status = SHIM_PNG_ERR_ARGUMENT;
    }
    if (problem == NULL && image->pixels == NULL) {
        size_t stride = (size_t)width * 4;
        allocated = malloc(stride * (size_t)height);
        if (allocated == NULL) {
            problem = "out of memory for the decoded PNG";
            status = SHIM_PNG_ERR_MEMORY;
        } else {
            image->pixels = allocated;
            image->stride = stride;
        }
    }
    if (problem == NULL) {
        rows = malloc(sizeof(png_bytep) * (size_t)height);
        if (rows == NULL) {
            problem = "out of memory for the decoded PNG";
            status = SHIM_PNG_ERR_MEMORY;
        }
    }
    if (problem != NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        if (allocated != NULL) {
            free(allocated);
            image->pixels = NULL;
        }
        shim_png_set_message(message, message_size, problem);
        return status;
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = image->pixels + (size_t)y * image->stride;
    png_read_image(png, rows);
    /* Reads through IEND so a file cut off after its pixel data is still reported. */
    png_read_end(png, NULL);
    for (png_uint_32 y = 0; y < height; y++) rgba_row_to_cairo(rows[y], (int)width, has_alpha);

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    image->width = (int)width;
    image->height = (int)height;
    image->has_alpha = has_alpha;
    return SHIM_PNG_OK;
}

uint32_t shim_png_pixels_per_metre(double dpi) {
    if (!(dpi > 0) || !isfinite(dpi)) return 0;
    double ppm = dpi / 0.0254;
    if (ppm > 2147483647.0) return 2147483647u; /* PNG's 31-bit limit */
    return (uint32_t)lround(ppm);
}

/* Un-premultiplies cairo words into 8-bit RGB or RGBA bytes. */
static void cairo_row_to_png(const uint8_t *in, uint8_t *out, int width, int has_alpha) {
    const uint32_t *words = (const uint32_t *)(const void *)in;
    for (int x = 0; x < width; x++) {
        uint32_t v = words[x];
        uint32_t r = (v >> 16) & 0xFF, g = (v >> 8) & 0xFF, b = v & 0xFF;
        if (has_alpha) {
            uint32_t a = v >> 24;
            if (a == 0) {
                r = g = b = 0;
            } else if (a != 255) {
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
                if (r > 255) r = 255;
                if (g > 255) g = 255;
                if (b > 255) b = 255;
            }
            out[0] = (uint8_t)r; out[1] = (uint8_t)g; out[2] = (uint8_t)b; out[3] = (uint8_t)a;
            out += 4;
        } else {
            out[0] = (uint8_t)r; out[1] = (uint8_t)g; out[2] = (uint8_t)b;
            out += 3;
        }
    }
}

int shim_png_write(const char *path, const uint8_t *pixels, int width, int height, size_t stride,
                   int has_alpha, double dpi, char *message, size_t message_size) {
    if (path == NULL || pixels == NULL || width <= 0 || height <= 0 || stride < (size_t)width * 4) {
        shim_png_set_message(message, message_size, "no image to write");
        return SHIM_PNG_ERR_ARGUMENT;
    }
    FILE *file = fopen(path, "wb");
    if (file == NULL) {
        char text[256];
        snprintf(text, sizeof text, "%s", strerror(errno));
        shim_png_set_message(message, message_size, text);
        return SHIM_PNG_ERR_IO;
    }
    /* A partial file is removed on failure, but only a regular one: the path may name a
     * device or a pipe that is not ours to delete. */
    struct stat file_status;
    int regular = fstat(fileno(file), &file_status) == 0 && S_ISREG(file_status.st_mode);
    struct shim_png_failure failure;
    memset(&failure, 0, sizeof failure);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, shim_png_on_error, shim_png_on_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    uint8_t *row = malloc((size_t)width * (has_alpha ? 4 : 3));
    if (png == NULL || info == NULL || row == NULL) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return shim_png_abandon_output(file, path, regular, message, message_size,
                                       "out of memory for the PNG writer", SHIM_PNG_ERR_MEMORY);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        /* On write, libpng fails only on I/O ("Write Error") or on arguments checked above. */
        return shim_png_abandon_output(file, path, regular, message, message_size,
                                       shim_png_write_failure(&failure), SHIM_PNG_ERR_IO);
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    uint32_t ppm = shim_png_pixels_per_metre(dpi);
    if (ppm > 0) png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
    /* Speed over size: page rasters are flat paper, text and photos, and a photo's noise defeats
     * any LZ search. Level 1 with the UP filter alone (which turns repeated rows of paper into
     * zeros) keeps files close to what higher levels and more filters give, in a fraction of
     * their time (docs/benchmarks.md has the method). */
    png_set_compression_level(png, SHIM_PNG_ZLIB_LEVEL);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, SHIM_PNG_FILTERS);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        cairo_row_to_png(pixels + (size_t)y * stride, row, width, has_alpha);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return shim_png_close_output(file, path, regular, message, message_size);
}
