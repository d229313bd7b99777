#ifndef SHIM_WORD_BREAKS_H
#define SHIM_WORD_BREAKS_H
#include <stdint.h>

/// The word boundaries ICU's word break iterator finds in `text` (UTF-8, `length` bytes) for
/// `locale` ("ja", "zh"; dictionary-based for scripts written without spaces), as byte offsets
/// strictly inside the text, in order. Writes at most `capacity`; returns how many there are, or -1
/// when ICU cannot take the text.
int32_t shim_word_breaks(const char *text, int32_t length, const char *locale, int32_t *offsets, int32_t capacity);

#endif
