#include "shim_png_common.h"
#include "shim_png.h"

#include <stdio.h>
#include <string.h>
#include <errno.h>

void shim_png_set_message(char *message, size_t message_size, const char *text) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", text);
}

void shim_png_on_error(png_structp png, png_const_charp text) {
    struct shim_png_failure *failure = png_get_error_ptr(png);
    int saved = errno;
    if (failure->message[0] == '\0') {
        snprintf(failure->message, sizeof failure->message, "%s", text);
        failure->os_error = saved;
    }
    if (failure->status == SHIM_PNG_OK) {
        /* Anything libpng stops on after the signature checked out is damage to the stream
         * (CRC, zlib, chunk lengths); a bad signature or IHDR is caught as FORMAT earlier. */
        failure->status = SHIM_PNG_ERR_CORRUPT;
    }
    png_longjmp(png, 1);
}

/* Read warnings (bad ancillary chunks, an sRGB profile libpng knows is wrong, extra image data)
 * leave the pixels intact; the default handler would print them to stderr. */
void shim_png_on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    struct shim_png_memory_reader *reader = png_get_io_ptr(png);
    if (count > reader->size - reader->position) {
        struct shim_png_failure *failure = png_get_error_ptr(png);
        failure->status = SHIM_PNG_ERR_TRUNCATED;
        png_error(png, "the data ends before the image does");
    }
    memcpy(out, reader->data + reader->position, count);
    reader->position += count;
}

void shim_png_start_reading(png_structp png, png_infop info, struct shim_png_memory_reader *reader) {
    png_set_read_fn(png, reader, read_from_memory);
    /* libpng's own limit is a million pixels a side; cairo stops at 32767, so fail in the header
     * rather than after allocating. */
    png_set_user_limits(png, SHIM_PNG_MAX_DIMENSION, SHIM_PNG_MAX_DIMENSION);
    /* Validating an embedded sRGB ICC profile hashes it; the profile is never used here. */
    png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    png_read_info(png, info);
}

int shim_png_expand_to_rgba8(png_structp png, png_infop info, png_uint_32 *width, png_uint_32 *height) {
    int bit_depth = 0, color_type = 0;
    png_get_IHDR(png, info, width, height, &bit_depth, &color_type, NULL, NULL, NULL);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    /* Scaling (v·255/65535, rounded) rather than dropping the low byte keeps 16-bit white white
     * and matches what ImageMagick writes for the same image at 8 bits. */
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    return has_alpha;
}

int shim_png_close_output(FILE *file, const char *path, int regular, char *message, size_t message_size) {
    int failed = fflush(file) != 0 || ferror(file);
    int saved = errno;
    if (fclose(file) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed) return SHIM_PNG_OK;
    char text[256];
    snprintf(text, sizeof text, "%s", strerror(saved));
    if (regular) remove(path);
    shim_png_set_message(message, message_size, text);
    return SHIM_PNG_ERR_IO;
}

int shim_png_abandon_output(FILE *file, const char *path, int regular, char *message, size_t message_size,
                            const char *text, int status) {
    /* `text` may be libpng's message in the caller's frame; copy it before anything else. */
    shim_png_set_message(message, message_size, text);
    fclose(file);
    if (regular) remove(path);
    return status;
}

const char *shim_png_write_failure(const struct shim_png_failure *failure) {
    /* libpng's write callback raises "Write Error" right after fwrite failed, errno still set. */
    if (failure->os_error != 0 && strcmp(failure->message, "Write Error") == 0) return strerror(failure->os_error);
    return failure->message[0] ? failure->message : "PNG writing failed";
}
