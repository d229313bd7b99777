#ifndef BOOKRENDER_SHIM_JSON_TEXT_H
#define BOOKRENDER_SHIM_JSON_TEXT_H
#include <stddef.h>
#include <stdint.h>

/* The render service reads request bodies of hundreds of megabytes a block at a time; these are
   the loops over each byte of them. */

/* How many bytes from `bytes` are plain text of a JSON string: up to the first quote, backslash
   or control character (or `length`). */
size_t shim_json_plain_run(const uint8_t *bytes, size_t length);

/* The Unicode scalars (UTF-8 lead bytes) of `length` bytes of text; `*only_base64` is cleared
   when one of them is not a letter of base64 (nor a line break). */
size_t shim_utf8_scalars(const uint8_t *bytes, size_t length, int *only_base64);

/* Base64 decoded a stretch at a time: the letters of a group not yet complete. */
typedef struct {
    uint32_t bits;
    int letters;
    int padded;
} shim_base64_state;

/* Decodes `length` bytes of base64 into `out` (room for length / 4 * 3 + 3 bytes), passing over
   bytes that are not base64's (line breaks, spaces). Returns the bytes written, or -1 when a
   letter follows the `=` padding. */
long shim_base64_decode(shim_base64_state *state, const uint8_t *in, size_t length, uint8_t *out);

/* The last bytes of a group cut short by the end (two or three letters); -1 for one letter. */
long shim_base64_finish(shim_base64_state *state, uint8_t *out);

#endif
