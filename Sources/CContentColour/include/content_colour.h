#ifndef BOOKRENDER_CONTENT_COLOUR_H
#define BOOKRENDER_CONTENT_COLOUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which colours count as black for text and thin strokes.
typedef struct {
    /// Largest RGB component (0…1) a black may have.
    double max_level;
    /// Largest difference between its RGB components: how far from neutral it may be.
    double max_spread;
    /// Strokes at most this wide (in default user space units, after the CTM) count as thin.
    double max_line_width;
} content_black_rule;

/// Copies the PDF at `input` to `output` with every DeviceRGB fill colour that text is shown in,
/// and every stroke colour of a thin stroke, that `rule` counts as black set as DeviceGray 0 (and
/// DeviceGray 0 for the stroke) instead, in page contents and in the form XObjects they use. Fills
/// of paths, images and everything else keep their colours. The output gets a deterministic /ID.
/// Returns 0, or 1 with a message in `error` (always NUL-terminated when `error_size` > 0).
int content_black_to_gray(const char *input, const char *output, content_black_rule rule,
                          char *error, size_t error_size);

/// Colours and pixels from sRGB to a printer's CMYK (a colour transform of the caller's).
typedef struct {
    void *context;
    /// One colour, RGB 0…1 in, CMYK 0…1 out.
    void (*colour)(void *context, double r, double g, double b, double cmyk[4]);
    /// `count` pixels of 8-bit RGB in, 8-bit CMYK out (0 no ink).
    void (*pixels)(void *context, const unsigned char *rgb, unsigned char *cmyk, size_t count);
} content_cmyk_converter;

/// Copies the PDF at `input` to `output` in CMYK: every DeviceRGB colour set in the contents of
/// its pages, the forms they use and the glyphs of its Type 3 fonts as DeviceCMYK through
/// `convert`, except that the text and thin strokes `rule` counts as black are set in DeviceGray 0
/// (black ink alone); every 8-bit DeviceRGB image converted to DeviceCMYK, and no image
/// interpolated. DeviceGray stays grey (the black plate). PDF 1.3, no object streams, cross-reference
/// tables (an incremental update can follow), and a static /ID for the update to replace.
/// Returns 0, or 1 with a message in `error`.
int content_convert_cmyk(const char *input, const char *output, content_black_rule rule, content_cmyk_converter convert,
                         char *error, size_t error_size);
/// Takes one object `content_cmyk_changed_objects` made: its number and its body as it follows
/// "n 0 obj\n" (a stream's dictionary, `stream`, its data, `endstream`).
typedef void (*content_take_object)(void *context, int number, const unsigned char *body, size_t size);

/// What `content_convert_cmyk` would change in the PDF at `path`, for an incremental update to it
/// (PDF 32000-1 §7.5.6): only the streams whose colours change, converted (contents, forms, Type 3
/// glyph procedures, RGB images), handed to `take` in object order; the file is only read, so the
/// pictures' bytes stay where they are. The pictures must need nothing but their dictionaries
/// changed to do this cheaply (a CMYK JPEG cairo wrote without /Decode comes back whole). Returns
/// 0; 2 when it cannot be done in place (the file has cross-reference or object streams, an object
/// of a generation other than 0, a page's content that is not one stream, or streams to replace
/// that hold more than `most_superseded` times the file's size: their old versions would stay in
/// it) and nothing was taken; or 1 with a message in `error`. New streams are compressed at `level`
/// (libdeflate, 1 to 12).
int content_cmyk_changed_objects(const char *path, content_black_rule rule, content_cmyk_converter convert,
                                 double most_superseded, int level, content_take_object take, void *context,
                                 char *error, size_t error_size);

/// Gives one page's content stream (`content`: decoded, or with `compressed` the zlib data of a
/// FlateDecode stream) every graphics object painted outside marked content (a painted path, `Do`,
/// `sh`, an inline image, a text-showing operator) wrapped in `/Artifact BMC … EMC`, and
/// compresses the result for a FlateDecode stream (a zlib stream, by libdeflate at `level`, 1 to
/// 12). Returns 0 with the bytes in `*out` (malloc'ed; the caller frees them), or 1 with a message
/// in `error`. Safe to call from several threads at once; the same input gives the same bytes.
int content_mark_artifacts(const unsigned char *content, size_t size, int compressed, int level, unsigned char **out,
                           size_t *out_size, char *error, size_t error_size);

/// The body of a stream cairo writes plain, a few bytes per write: collected here, where a write
/// costs a copy, rather than in Swift. `active` while a body is being collected.
typedef struct {
    unsigned char *bytes;
    size_t size, capacity;
    int active, failed;
} plain_body;

/// Takes one of cairo's writes into an active body: 0 when taken, 1 for the write that ends the
/// stream ("\nendstream\nendobj\n", not taken), 2 when no body is being collected.
int plain_body_take(plain_body *body, const unsigned char *data, size_t length);

/// `content` compressed as a zlib stream by libdeflate at `level` (1 to 12), for a FlateDecode
/// stream; returns as `content_mark_artifacts` does.
int content_compress(const unsigned char *content, size_t size, int level, unsigned char **out, size_t *out_size,
                     char *error, size_t error_size);

/// `content_mark_artifacts` without the compression: the marked content as it reads.
int content_mark_artifacts_plain(const unsigned char *content, size_t size, unsigned char **out, size_t *out_size,
                                 char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
