#include "shim_png.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include "shim_png_common.h"

int shim_png_verify(const uint8_t *data, size_t size, char *message, size_t message_size) {
    if (data == NULL || size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        shim_png_set_message(message, message_size, "not a PNG (bad signature)");
        return SHIM_PNG_ERR_FORMAT;
    }
    struct shim_png_failure failure;
    memset(&failure, 0, sizeof failure);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, shim_png_on_error, shim_png_on_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        shim_png_set_message(message, message_size, "out of memory for the PNG reader");
        return SHIM_PNG_ERR_MEMORY;
    }
    struct shim_png_memory_reader reader = {data, size, 0};
    uint8_t *volatile row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        shim_png_set_message(message, message_size, failure.message[0] ? failure.message : "PNG decoding failed");
        return failure.status == SHIM_PNG_OK ? SHIM_PNG_ERR_CORRUPT : failure.status;
    }
    shim_png_start_reading(png, info, &reader);
    png_uint_32 width = 0, height = 0;
    shim_png_expand_to_rgba8(png, info, &width, &height);
    /* The expansion set up interlace handling: an Adam7 image is read as seven passes of rows. */
    int passes = png_get_interlace_type(png, info) == PNG_INTERLACE_ADAM7 ? 7 : 1;
    row = malloc(png_get_rowbytes(png, info) > 0 ? png_get_rowbytes(png, info) : 1);
    if (row == NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        shim_png_set_message(message, message_size, "out of memory for the PNG reader");
        return SHIM_PNG_ERR_MEMORY;
    }
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, row, NULL);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return SHIM_PNG_OK;
}
