#include "shim_json_text.h"

size_t shim_json_plain_run(const uint8_t *bytes, size_t length) {
    size_t i = 0;
    while (i < length) {
        uint8_t b = bytes[i];
        if (b == '"' || b == '\\' || b < 0x20) break;
        i++;
    }
    return i;
}

static int is_base64_text(uint8_t b) {
    return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '+' || b == '/'
        || b == '=' || b == '\n' || b == '\r';
}

size_t shim_utf8_scalars(const uint8_t *bytes, size_t length, int *only_base64) {
    size_t n = 0;
    int plain = *only_base64;
    for (size_t i = 0; i < length; i++) {
        uint8_t b = bytes[i];
        n += (b & 0xC0) != 0x80;
        if (plain && !is_base64_text(b)) plain = 0;
    }
    *only_base64 = plain;
    return n;
}

/* 0…63 for a letter, 64 for '=', 255 for what is passed over. */
static uint8_t base64_value(uint8_t b) {
    if (b >= 'A' && b <= 'Z') return b - 'A';
    if (b >= 'a' && b <= 'z') return b - 'a' + 26;
    if (b >= '0' && b <= '9') return b - '0' + 52;
    if (b == '+') return 62;
    if (b == '/') return 63;
    if (b == '=') return 64;
    return 255;
}

long shim_base64_decode(shim_base64_state *state, const uint8_t *in, size_t length, uint8_t *out) {
    uint32_t bits = state->bits;
    int letters = state->letters, padded = state->padded;
    long written = 0;
    for (size_t i = 0; i < length; i++) {
        uint8_t v = base64_value(in[i]);
        if (v < 64) {
            if (padded) return -1;
            bits = bits << 6 | v;
            if (++letters == 4) {
                out[written++] = (uint8_t)(bits >> 16);
                out[written++] = (uint8_t)(bits >> 8);
                out[written++] = (uint8_t)bits;
                bits = 0;
                letters = 0;
            }
        } else if (v == 64) {
            padded = 1;
        }
    }
    state->bits = bits;
    state->letters = letters;
    state->padded = padded;
    return written;
}

long shim_base64_finish(shim_base64_state *state, uint8_t *out) {
    switch (state->letters) {
    case 0: return 0;
    case 2: out[0] = (uint8_t)(state->bits >> 4); return 1;
    case 3: out[0] = (uint8_t)(state->bits >> 10); out[1] = (uint8_t)(state->bits >> 2); return 2;
    default: return -1;
    }
}
