#ifndef BOOKRENDER_SHIM_PNG_COMMON_H
#define BOOKRENDER_SHIM_PNG_COMMON_H
/* What the two PNG readers (cairo pixels for pages, straight RGBA for comparison) and the two
 * writers share: libpng's error plumbing, reading from memory, and expansion to 8-bit RGBA. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <png.h>

/* cairo image surfaces stop at 32767 pixels a side. */
#define SHIM_PNG_MAX_DIMENSION 32767

/* libpng calls the error handler with its message and expects it never to return, so it records
 * the first message and status and longjmps back to the setjmp in the calling function. */
struct shim_png_failure {
    char message[256];
    int status;
    /* errno when the first error was raised: a write error's reason in the system's words,
     * where libpng only says "Write Error". */
    int os_error;
};

struct shim_png_memory_reader {
    const uint8_t *data;
    size_t size;
    size_t position;
};

void shim_png_set_message(char *message, size_t message_size, const char *text);
void shim_png_on_error(png_structp png, png_const_charp text);
void shim_png_on_warning(png_structp png, png_const_charp text);

/* Reads from `reader`, caps the size at cairo's limit and reads the header (png_read_info). */
void shim_png_start_reading(png_structp png, png_infop info, struct shim_png_memory_reader *reader);

/* Sets up expansion of any PNG (palette, grey, tRNS, 16-bit, interlaced) to 8-bit RGBA rows and
 * reports its size; returns whether the image had alpha. */
int shim_png_expand_to_rgba8(png_structp png, png_infop info, png_uint_32 *width, png_uint_32 *height);
/* Flushes and closes a written PNG. Buffered data reaches the disk only here, so a full disk shows
 * up as a failed flush: then the file is removed (when `regular`, i.e. not a pipe or a device),
 * `message` says why in the system's words (the caller names the file), and the result is
 * SHIM_PNG_ERR_IO; otherwise SHIM_PNG_OK. */
int shim_png_close_output(FILE *file, const char *path, int regular, char *message, size_t message_size);

/* Gives up on a PNG being written: closes the file, removes it when `regular`, puts `text` in
 * `message` and returns `status`. */
int shim_png_abandon_output(FILE *file, const char *path, int regular, char *message, size_t message_size,
                            const char *text, int status);

/* Why writing stopped, for `message`: the system's reason when libpng stopped on a failed write,
 * else libpng's own message. */
const char *shim_png_write_failure(const struct shim_png_failure *failure);
#endif
