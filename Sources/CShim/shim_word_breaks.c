#include "shim_word_breaks.h"
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>

// ICU's C names are versioned by macros (ubrk_open is ubrk_open_72), which Swift cannot see.
int32_t shim_word_breaks(const char *text, int32_t length, const char *locale, int32_t *offsets, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UText *ut = utext_openUTF8(NULL, text, length, &status);
    if (U_FAILURE(status)) return -1;
    UBreakIterator *it = ubrk_open(UBRK_WORD, locale, NULL, 0, &status);
    if (U_FAILURE(status)) { utext_close(ut); return -1; }
    ubrk_setUText(it, ut, &status);
    if (U_FAILURE(status)) { ubrk_close(it); utext_close(ut); return -1; }
    int32_t count = 0;
    // Over UTF-8 text the iterator's positions are byte offsets.
    for (int32_t b = ubrk_next(it); b != UBRK_DONE; b = ubrk_next(it)) {
        if (b <= 0 || b >= length) continue;
        if (count < capacity) offsets[count] = b;
        count++;
    }
    ubrk_close(it);
    utext_close(ut);
    return count;
}
