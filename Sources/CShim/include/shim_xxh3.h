#ifndef BOOKRENDER_SHIM_XXH3_H
#define BOOKRENDER_SHIM_XXH3_H
#include <stddef.h>

/* XXH3-128 through libxxhash: names an image by its content and digests a PDF as cairo writes it.
   Several times faster than SHA-256 even with the CPU's SHA instructions, which matters: hashing
   a picture book's JPEGs was a large part of its export. Not a cryptographic hash: used where a
   collision could only confuse the book that was built to cause it. */
typedef struct shim_xxh3 shim_xxh3;

shim_xxh3 *shim_xxh3_new(void);
void shim_xxh3_update(shim_xxh3 *h, const void *bytes, size_t length);
/* Writes 32 lowercase hex digits (the canonical big-endian form, as `xxhsum -H2` prints it) and
   a NUL to `hex`, and frees `h`. */
void shim_xxh3_finish(shim_xxh3 *h, char hex[33]);

#endif
