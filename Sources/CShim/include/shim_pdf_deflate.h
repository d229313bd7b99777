#ifndef BOOKRENDER_SHIM_PDF_DEFLATE_H
#define BOOKRENDER_SHIM_PDF_DEFLATE_H
#include <stdint.h>

/* cairo compresses every PDF content stream, font and image with zlib's deflate at its default level
 * (6): a tenth of the CPU time of a 280-page memoir. shim_pdf_deflate.c stands in for zlib's
 * deflateInit_, deflate, deflateEnd and compress (the program's definitions come first when libcairo
 * looks them up): a stream libcairo opens is gathered whole and compressed at Z_FINISH, and its
 * compress calls are answered, by libdeflate at level 7: the same zlib format, in half the time for
 * the memoir's pages, and a little smaller (431 against 435 KB). A stream that grows past 256 KiB (an
 * image's pixels) goes on with zlib, given what was gathered, so that the pixels are not held a
 * second time. Every other caller (libpng, qpdf) gets zlib itself. */

typedef struct {
    uint64_t streams;  /* streams and compress calls of libcairo compressed by libdeflate */
    uint64_t bytesIn;  /* their bytes before */
    uint64_t bytesOut; /* and after */
    uint64_t handedToZlib; /* streams that grew past 256 KiB (an image's pixels) and went to zlib after all */
} shim_pdf_deflate_stats;

/* Counts since the process started (all threads). */
shim_pdf_deflate_stats shim_pdf_deflate_totals(void);

#endif
