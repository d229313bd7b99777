#include "shim_png_rgba.h"
#include "shim_png.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <png.h>
#include "shim_png_common.h"

static int rgba_check_signature(const uint8_t *data, size_t size, char *message, size_t message_size) {
    if (data == NULL) {
        shim_png_set_message(message, message_size, "no PNG data");
        return SHIM_PNG_ERR_ARGUMENT;
    }
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        shim_png_set_message(message, message_size, "not a PNG (bad signature)");
        return SHIM_PNG_ERR_FORMAT;
    }
    return SHIM_PNG_OK;
}

int shim_png_rgba_size(const uint8_t *data, size_t size, int *width, int *height,
                       char *message, size_t message_size) {
    int status = rgba_check_signature(data, size, message, message_size);
    if (status != SHIM_PNG_OK) return status;
    /* IHDR is always the first chunk: length, type, then width and height big-endian. */
    if (size < 24 || memcmp(data + 12, "IHDR", 4) != 0) {
        shim_png_set_message(message, message_size, size < 24 ? "the data ends before the PNG header does"
                                                      : "PNG has no IHDR chunk first");
        return size < 24 ? SHIM_PNG_ERR_TRUNCATED : SHIM_PNG_ERR_FORMAT;
    }
    uint32_t w = ((uint32_t)data[16] << 24) | ((uint32_t)data[17] << 16) | ((uint32_t)data[18] << 8) | data[19];
    uint32_t h = ((uint32_t)data[20] << 24) | ((uint32_t)data[21] << 16) | ((uint32_t)data[22] << 8) | data[23];
    if (w == 0 || h == 0) {
        shim_png_set_message(message, message_size, "PNG has a zero width or height");
        return SHIM_PNG_ERR_FORMAT;
    }
    if (w > SHIM_PNG_MAX_DIMENSION || h > SHIM_PNG_MAX_DIMENSION) {
        char text[128];
        snprintf(text, sizeof text, "PNG is %u×%u, larger than 32767 pixels on a side", w, h);
        shim_png_set_message(message, message_size, text);
        return SHIM_PNG_ERR_TOO_LARGE;
    }
    if (width != NULL) *width = (int)w;
    if (height != NULL) *height = (int)h;
    return SHIM_PNG_OK;
}

int shim_png_rgba_decode(const uint8_t *data, size_t size, uint8_t *pixels, size_t capacity,
                         int *has_alpha_out, char *message, size_t message_size) {
    int header_width = 0, header_height = 0;
    int status = shim_png_rgba_size(data, size, &header_width, &header_height, message, message_size);
    if (status != SHIM_PNG_OK) return status;
    if (pixels == NULL || capacity < (size_t)header_width * (size_t)header_height * 4) {
        shim_png_set_message(message, message_size, "destination buffer is smaller than the PNG");
        return SHIM_PNG_ERR_ARGUMENT;
    }
    struct shim_png_failure failure;
    memset(&failure, 0, sizeof failure);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, shim_png_on_error, shim_png_on_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        shim_png_set_message(message, message_size, "out of memory for the PNG reader");
        return SHIM_PNG_ERR_MEMORY;
    }
    struct shim_png_memory_reader reader = {data, size, 0};
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        shim_png_set_message(message, message_size, failure.message[0] ? failure.message : "PNG decoding failed");
        return failure.status == SHIM_PNG_OK ? SHIM_PNG_ERR_CORRUPT : failure.status;
    }
    shim_png_start_reading(png, info, &reader);
    png_uint_32 width = 0, height = 0;
    int has_alpha = shim_png_expand_to_rgba8(png, info, &width, &height);

    if ((int)width != header_width || (int)height != header_height || png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_destroy_read_struct(&png, &info, NULL);
        shim_png_set_message(message, message_size, "PNG row layout after expansion is not 8-bit RGBA");
        return SHIM_PNG_ERR_FORMAT;
    }
    rows = malloc(sizeof(png_bytep) * (size_t)height);
    if (rows == NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        shim_png_set_message(message, message_size, "out of memory for the decoded PNG");
        return SHIM_PNG_ERR_MEMORY;
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    if (has_alpha_out != NULL) *has_alpha_out = has_alpha;
    return SHIM_PNG_OK;
}

int shim_png_rgba_write(const char *path, const uint8_t *pixels, int width, int height, int keep_alpha,
                        char *message, size_t message_size) {
    if (path == NULL || pixels == NULL || width <= 0 || height <= 0) {
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
    struct stat file_status;
    int regular = fstat(fileno(file), &file_status) == 0 && S_ISREG(file_status.st_mode);
    struct shim_png_failure failure;
    memset(&failure, 0, sizeof failure);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, shim_png_on_error, shim_png_on_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    uint8_t *volatile row = keep_alpha ? NULL : malloc((size_t)width * 3);
    if (png == NULL || info == NULL || (!keep_alpha && row == NULL)) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return shim_png_abandon_output(file, path, regular, message, message_size,
                                       "out of memory for the PNG writer", SHIM_PNG_ERR_MEMORY);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return shim_png_abandon_output(file, path, regular, message, message_size,
                                       shim_png_write_failure(&failure), SHIM_PNG_ERR_IO);
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* The same speed-over-size settings as the page writer (see shim_png.c): diff images are
     * written for every differing page and are mostly flat grey. */
    png_set_compression_level(png, 3);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB | PNG_FILTER_UP);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        const uint8_t *in = pixels + (size_t)y * (size_t)width * 4;
        if (keep_alpha) {
            png_write_row(png, (png_const_bytep)in);
        } else {
            uint8_t *out = row;
            for (int x = 0; x < width; x++, in += 4, out += 3) {
                out[0] = in[0]; out[1] = in[1]; out[2] = in[2];
            }
            png_write_row(png, row);
        }
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return shim_png_close_output(file, path, regular, message, message_size);
}
