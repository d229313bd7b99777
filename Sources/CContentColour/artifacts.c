/* Artifact marking of one page's content stream (see content_colour.h).
 *
 * A hand-written lexer rather than qpdf's QPDFTokenizer: marking runs on every page of every
 * tagged PDF, and qpdf's token objects (each token's value copied into strings, then into the
 * filter's queues) made it the slowest step of a long book's export. The marking only ever
 * inserts text between tokens, so the lexer needs no values: each token is a span of the input,
 * and the output is the input copied through with `/Artifact BMC` and `EMC` added.
 *
 * The grammar is PDF 32000-1 section 7.2 (white space, delimiters, comments), 7.3 (strings,
 * names, numbers, arrays, dictionaries) and 8.9.7 (inline images). */
#include "content_colour.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <pthread.h>

typedef enum { TOKEN_IGNORABLE, TOKEN_OPERAND, TOKEN_NAME, TOKEN_WORD } token_kind;

typedef struct {
    token_kind kind;
    size_t start, end;
} token;

typedef struct {
    const unsigned char *in;
    size_t size;
    size_t at;
} lexer;

static int is_space(unsigned char c) { return c == 0 || c == 9 || c == 10 || c == 12 || c == 13 || c == 32; }

static int is_delimiter(unsigned char c) {
    return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == '/' ||
           c == '%';
}

static int is_regular(unsigned char c) { return !is_space(c) && !is_delimiter(c); }

/* A run of regular characters that is a number, `true`, `false` or `null` is an operand; any
 * other is an operator. */
static int is_operand_word(const unsigned char *s, size_t n) {
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0) ||
        (n == 4 && memcmp(s, "null", 4) == 0))
        return 1;
    size_t i = 0, digits = 0, points = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    for (; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.' && points == 0)
            points++;
        else
            return 0;
    }
    return digits > 0;
}

/* The next token, or 0 at the end of the input. A string, name or comment cut off by the end
 * runs to it, as qpdf reads it. */
static int next_token(lexer *lx, token *t) {
    const unsigned char *s = lx->in;
    size_t n = lx->size, i = lx->at;
    if (i >= n) return 0;
    t->start = i;
    unsigned char c = s[i];
    if (is_space(c)) {
        while (i < n && is_space(s[i])) i++;
        t->kind = TOKEN_IGNORABLE;
    } else if (c == '%') {
        while (i < n && s[i] != '\n' && s[i] != '\r') i++;
        t->kind = TOKEN_IGNORABLE;
    } else if (c == '(') {
        int depth = 0;
        while (i < n) {
            unsigned char d = s[i++];
            if (d == '\\') {
                if (i < n) i++;
            } else if (d == '(') {
                depth++;
            } else if (d == ')' && --depth == 0) {
                break;
            }
        }
        t->kind = TOKEN_OPERAND;
    } else if (c == '<') {
        if (i + 1 < n && s[i + 1] == '<') {
            i += 2;
        } else {
            while (i < n && s[i] != '>') i++;
            if (i < n) i++;
        }
        t->kind = TOKEN_OPERAND;
    } else if (c == '>') {
        i += (i + 1 < n && s[i + 1] == '>') ? 2 : 1;
        t->kind = TOKEN_OPERAND;
    } else if (c == '/') {
        i++;
        while (i < n && is_regular(s[i])) i++;
        t->kind = TOKEN_NAME;
    } else if (is_delimiter(c)) {
        /* [ ] { } and a stray ) */
        i++;
        t->kind = TOKEN_OPERAND;
    } else {
        while (i < n && is_regular(s[i])) i++;
        t->kind = is_operand_word(s + t->start, i - t->start) ? TOKEN_OPERAND : TOKEN_WORD;
    }
    t->end = i;
    lx->at = i;
    return 1;
}

static int word_is(const lexer *lx, const token *t, const char *word) {
    size_t n = strlen(word);
    return t->end - t->start == n && memcmp(lx->in + t->start, word, n) == 0;
}

/* Whether name token `t` is `/name` once its #xx escapes are read. */
static int name_is(const lexer *lx, const token *t, const char *name) {
    const unsigned char *s = lx->in;
    size_t i = t->start + 1, k = 0, n = strlen(name);
    while (i < t->end) {
        unsigned char c = s[i++];
        if (c == '#' && i + 1 < t->end) {
            unsigned v = 0;
            if (sscanf((const char *)s + i, "%2x", &v) != 1) return 0;
            c = (unsigned char)v;
            i += 2;
        }
        if (k >= n || name[k++] != (char)c) return 0;
    }
    return k == n;
}

/* After an inline image's ID: the offset just past the EI that ends its data, or 0 when there
 * is none. The data may hold the bytes "EI" too, so an EI counts only between white space (or
 * at the end) and when what follows reads as content: ten tokens with no binary bytes in their
 * words, or the end of the stream. qpdf judges an inline image's end the same way. */
static size_t inline_image_end(const lexer *lx, size_t from) {
    const unsigned char *s = lx->in;
    size_t n = lx->size;
    for (size_t i = from; i + 2 <= n; i++) {
        if (s[i] != 'E' || s[i + 1] != 'I') continue;
        if (i == 0 || !is_space(s[i - 1])) continue;
        if (i + 2 < n && !is_space(s[i + 2])) continue;
        lexer after = {s, n, i + 2};
        token t;
        int count = 0, plausible = 1;
        while (count < 10 && next_token(&after, &t)) {
            if (t.kind == TOKEN_IGNORABLE) continue;
            count++;
            if (t.kind == TOKEN_WORD || t.kind == TOKEN_NAME) {
                for (size_t k = t.start; k < t.end; k++) {
                    if (s[k] < 0x21 || s[k] > 0x7e) plausible = 0;
                }
            }
            if (!plausible) break;
        }
        if (plausible) return i + 2;
    }
    return 0;
}

/* The output, growing. */
typedef struct {
    unsigned char *bytes;
    size_t size, capacity;
    int failed;
} buffer;

/* Appends `n` bytes to a growing array whose room doubles from `first`; `*failed` once it cannot. */
static void grow_append(unsigned char **bytes, size_t *size, size_t *capacity, int *failed, size_t first,
                        const void *data, size_t n) {
    if (*failed) return;
    if (*size + n > *capacity) {
        size_t room = *capacity ? *capacity : first;
        while (room < *size + n) room *= 2;
        unsigned char *grown = realloc(*bytes, room);
        if (!grown) {
            *failed = 1;
            return;
        }
        *bytes = grown;
        *capacity = room;
    }
    memcpy(*bytes + *size, data, n);
    *size += n;
}

static void append(buffer *b, const void *data, size_t n) {
    grow_append(&b->bytes, &b->size, &b->capacity, &b->failed, 4096, data, n);
}

typedef struct {
    const lexer *lx;
    buffer *out;
    size_t copied;
} copier;

/* Copies the input up to `offset`, then `text`. */
static void insert_at(copier *c, size_t offset, const char *text) {
    append(c->out, c->lx->in + c->copied, offset - c->copied);
    c->copied = offset;
    append(c->out, text, strlen(text));
}

static const char *const OPEN = "\n/Artifact BMC\n";
static const char *const CLOSE = "\nEMC\n";

static int any_word(const lexer *lx, const token *t, const char *const *words) {
    for (; *words; words++) {
        if (word_is(lx, t, *words)) return 1;
    }
    return 0;
}

static const char *const BUILDS_PATH[] = {"m", "l", "c", "v", "y", "h", "re", "W", "W*", NULL};
static const char *const PAINTS_PATH[] = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", NULL};
static const char *const PAINTS_ALONE[] = {"Do", "sh", "Tj", "TJ", "'", "\"", NULL};

static void set_error(char *error, size_t error_size, const char *format, ...) {
    if (!error || error_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

/* Marks `content`; 0 with the marked bytes in `out`, or 1 with a message. Operands wait for
 * their operator, so an `/Artifact BMC` goes before the operands of the operator it wraps; a
 * path waits whole for its painting operator, since a path ended by `n` (a clip) paints nothing
 * and stays unmarked. Tokens are never moved, so what waits is always the input between two
 * offsets, and marking is inserting text there. */
static int mark(const unsigned char *content, size_t size, buffer *out, char *error, size_t error_size) {
    lexer lx = {content, size, 0};
    copier c = {&lx, out, 0};
    /* Open marked-content sequences, each with whether it is structure or artifact content
     * (a sequence with an MCID, or an /Artifact). A span without either, such as the ActualText
     * that hides a placeholder's caption from the text layer, is neither. */
    unsigned char *sequences = NULL;
    size_t sequence_count = 0, sequence_capacity = 0;
    int depth = 0;
    /* Where the operands waiting for an operator start: just after the last operator. */
    size_t operands = 0;
    /* Where a path waiting at depth 0 for its painting operator starts; SIZE_MAX for none. */
    size_t path = SIZE_MAX;
    int status = 0;
    token t;
    while (next_token(&lx, &t)) {
        if (t.kind != TOKEN_WORD) continue;
        int builds_path = depth == 0 && any_word(&lx, &t, BUILDS_PATH);
        if (depth == 0 && (builds_path || path != SIZE_MAX)) {
            if (builds_path) {
                if (path == SIZE_MAX) path = operands;
            } else if (any_word(&lx, &t, PAINTS_PATH)) {
                insert_at(&c, path, OPEN);
                insert_at(&c, t.end, CLOSE);
                path = SIZE_MAX;
            } else {
                path = SIZE_MAX;
            }
            operands = t.end;
            continue;
        }
        if (depth == 0 && any_word(&lx, &t, PAINTS_ALONE)) {
            insert_at(&c, operands, OPEN);
            insert_at(&c, t.end, CLOSE);
            operands = t.end;
            continue;
        }
        if (word_is(&lx, &t, "ID")) {
            /* One white-space character, then the image's data, to its EI. */
            size_t end = inline_image_end(&lx, t.end + 1);
            if (end == 0) {
                set_error(error, error_size, "an inline image's data has no EI after it");
                status = 1;
                break;
            }
            lx.at = end;
            operands = end;
            continue;
        }
        if (depth == 0 && word_is(&lx, &t, "BI")) {
            /* The whole inline image, BI to EI, is one artifact. */
            insert_at(&c, operands, OPEN);
            token u;
            size_t end = 0;
            while (next_token(&lx, &u)) {
                if (u.kind == TOKEN_WORD && word_is(&lx, &u, "ID")) {
                    end = inline_image_end(&lx, u.end + 1);
                    break;
                }
            }
            if (end == 0) {
                set_error(error, error_size, "an inline image has no ID and EI");
                status = 1;
                break;
            }
            lx.at = end;
            insert_at(&c, end, CLOSE);
            operands = end;
            continue;
        }
        if (word_is(&lx, &t, "BMC") || word_is(&lx, &t, "BDC")) {
            /* Its operands: the tag, and for BDC a property list or a name. */
            lexer scan = {content, t.start, operands};
            token o;
            int marks = 0;
            while (next_token(&scan, &o)) {
                if (o.kind == TOKEN_NAME && (name_is(&lx, &o, "MCID") || name_is(&lx, &o, "Artifact"))) marks = 1;
            }
            if (sequence_count == sequence_capacity) {
                size_t capacity = sequence_capacity ? sequence_capacity * 2 : 16;
                unsigned char *grown = realloc(sequences, capacity);
                if (!grown) {
                    set_error(error, error_size, "out of memory");
                    status = 1;
                    break;
                }
                sequences = grown;
                sequence_capacity = capacity;
            }
            sequences[sequence_count++] = (unsigned char)marks;
            if (marks) depth++;
        } else if (word_is(&lx, &t, "EMC") && sequence_count > 0) {
            if (sequences[--sequence_count]) depth--;
        }
        operands = t.end;
    }
    free(sequences);
    if (status == 0) {
        append(out, content + c.copied, size - c.copied);
        if (out->failed) {
            set_error(error, error_size, "out of memory");
            status = 1;
        }
    }
    return status;
}

int content_mark_artifacts_plain(const unsigned char *content, size_t size, unsigned char **out, size_t *out_size,
                                 char *error, size_t error_size) {
    buffer marked = {NULL, 0, 0, 0};
    if (mark(content, size, &marked, error, error_size) != 0) {
        free(marked.bytes);
        *out = NULL;
        *out_size = 0;
        return 1;
    }
    *out = marked.bytes;
    *out_size = marked.size;
    return 0;
}

/* `data`, a zlib stream, inflated into `out`. libdeflate inflates a whole buffer at once, into
 * room given beforehand: a page's content is a few times its compressed size, so a first guess
 * of four times nearly always holds, and the room doubles until the content fits. */
static int inflate_all(const unsigned char *data, size_t size, buffer *out, char *error, size_t error_size) {
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!d) {
        set_error(error, error_size, "out of memory");
        return 1;
    }
    size_t room = size < (1u << 14) ? (1u << 16) : size > SIZE_MAX / 8 ? SIZE_MAX / 2 : size * 4;
    enum libdeflate_result result = LIBDEFLATE_INSUFFICIENT_SPACE;
    while (result == LIBDEFLATE_INSUFFICIENT_SPACE) {
        unsigned char *grown = realloc(out->bytes, room);
        if (!grown) {
            out->failed = 1;
            break;
        }
        out->bytes = grown;
        out->capacity = room;
        size_t inflated = 0;
        result = libdeflate_zlib_decompress(d, data, size, out->bytes, room, &inflated);
        out->size = result == LIBDEFLATE_SUCCESS ? inflated : 0;
        if (room > SIZE_MAX / 2) break;
        room *= 2;
    }
    libdeflate_free_decompressor(d);
    if (out->failed) {
        set_error(error, error_size, "out of memory");
        return 1;
    }
    if (result != LIBDEFLATE_SUCCESS) {
        set_error(error, error_size, "its Flate-compressed content does not inflate (libdeflate %d)", (int)result);
        return 1;
    }
    return 0;
}

/* One compressor per thread and level, kept: making one sets up tables larger than most pages. */
static pthread_key_t compressor_key;
static pthread_once_t compressor_once = PTHREAD_ONCE_INIT;
typedef struct {
    int level;
    struct libdeflate_compressor *compressor;
} kept_compressor;

static void free_kept(void *p) {
    kept_compressor *kept = p;
    libdeflate_free_compressor(kept->compressor);
    free(kept);
}
static void make_compressor_key(void) { pthread_key_create(&compressor_key, free_kept); }

static struct libdeflate_compressor *compressor(int level) {
    pthread_once(&compressor_once, make_compressor_key);
    kept_compressor *kept = pthread_getspecific(compressor_key);
    if (kept && kept->level == level) return kept->compressor;
    struct libdeflate_compressor *made = libdeflate_alloc_compressor(level);
    if (!made) return NULL;
    if (!kept) {
        kept = malloc(sizeof *kept);
        if (!kept) {
            libdeflate_free_compressor(made);
            return NULL;
        }
        pthread_setspecific(compressor_key, kept);
    } else {
        libdeflate_free_compressor(kept->compressor);
    }
    kept->level = level;
    kept->compressor = made;
    return made;
}

int content_mark_artifacts(const unsigned char *content, size_t size, int compressed, int level, unsigned char **out,
                           size_t *out_size, char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    buffer inflated = {NULL, 0, 0, 0};
    if (compressed) {
        if (inflate_all(content, size, &inflated, error, error_size) != 0) {
            free(inflated.bytes);
            return 1;
        }
        content = inflated.bytes ? inflated.bytes : (const unsigned char *)"";
        size = inflated.size;
    }
    unsigned char *marked;
    size_t marked_size;
    int status = content_mark_artifacts_plain(content, size, &marked, &marked_size, error, error_size);
    free(inflated.bytes);
    if (status != 0) return 1;
    struct libdeflate_compressor *c = compressor(level < 1 ? 1 : level > 12 ? 12 : level);
    size_t bound = c ? libdeflate_zlib_compress_bound(c, marked_size) : 0;
    unsigned char *compressed_bytes = c ? malloc(bound) : NULL;
    if (!compressed_bytes) {
        free(marked);
        set_error(error, error_size, "out of memory");
        return 1;
    }
    size_t written = libdeflate_zlib_compress(c, marked ? marked : (const unsigned char *)"", marked_size, compressed_bytes, bound);
    free(marked);
    if (written == 0) {
        free(compressed_bytes);
        set_error(error, error_size, "libdeflate could not compress the content");
        return 1;
    }
    *out = compressed_bytes;
    *out_size = written;
    return 0;
}

int content_compress(const unsigned char *content, size_t size, int level, unsigned char **out, size_t *out_size,
                     char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    struct libdeflate_compressor *c = compressor(level < 1 ? 1 : level > 12 ? 12 : level);
    size_t bound = c ? libdeflate_zlib_compress_bound(c, size) : 0;
    unsigned char *compressed_bytes = c ? malloc(bound) : NULL;
    if (!compressed_bytes) {
        set_error(error, error_size, "out of memory");
        return 1;
    }
    size_t written = libdeflate_zlib_compress(c, size ? content : (const unsigned char *)"", size, compressed_bytes, bound);
    if (written == 0) {
        free(compressed_bytes);
        set_error(error, error_size, "libdeflate could not compress the content");
        return 1;
    }
    *out = compressed_bytes;
    *out_size = written;
    return 0;
}

int plain_body_take(plain_body *body, const unsigned char *data, size_t length) {
    static const char end[] = "\nendstream\nendobj\n";
    if (!body->active) return 2;
    if (length == sizeof end - 1 && memcmp(data, end, length) == 0) return 1;
    grow_append(&body->bytes, &body->size, &body->capacity, &body->failed, 1u << 16, data, length);
    return 0;
}
