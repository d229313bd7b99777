#include "shim_sha256.h"
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>

struct shim_sha256 { struct sha256_ctx ctx; };

shim_sha256 *shim_sha256_new(void) {
    shim_sha256 *h = malloc(sizeof *h);
    if (h) sha256_init(&h->ctx);
    return h;
}

void shim_sha256_update(shim_sha256 *h, const void *bytes, size_t length) {
    if (length) sha256_update(&h->ctx, length, bytes);
}

void shim_sha256_finish(shim_sha256 *h, char hex[65]) {
    static const char digits[] = "0123456789abcdef";
    unsigned char digest[SHA256_DIGEST_SIZE];
    sha256_digest(&h->ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[64] = 0;
    free(h);
}
