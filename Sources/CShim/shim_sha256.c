#include "shim_sha256.h"
#include <nettle/sha2.h>
#include <nettle/hmac.h>
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

void shim_hmac_sha256(const void *key, size_t key_length, const void *message, size_t length, unsigned char mac[32]) {
    struct hmac_sha256_ctx ctx;
    hmac_sha256_set_key(&ctx, key_length, key);
    if (length) hmac_sha256_update(&ctx, length, message);
    hmac_sha256_digest(&ctx, SHA256_DIGEST_SIZE, mac);
}
