#include "shim_xxh3.h"
#include <xxhash.h>

/* The handle is libxxhash's own state, cast. */
shim_xxh3 *shim_xxh3_new(void) {
    XXH3_state_t *state = XXH3_createState();
    if (!state) return NULL;
    XXH3_128bits_reset(state);
    return (shim_xxh3 *)state;
}

void shim_xxh3_update(shim_xxh3 *h, const void *bytes, size_t length) {
    if (length) XXH3_128bits_update((XXH3_state_t *)h, bytes, length);
}

void shim_xxh3_finish(shim_xxh3 *h, char hex[33]) {
    static const char digits[] = "0123456789abcdef";
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest((XXH3_state_t *)h));
    for (int i = 0; i < 16; i++) {
        hex[2 * i] = digits[canonical.digest[i] >> 4];
        hex[2 * i + 1] = digits[canonical.digest[i] & 15];
    }
    hex[32] = 0;
    XXH3_freeState((XXH3_state_t *)h);
}
