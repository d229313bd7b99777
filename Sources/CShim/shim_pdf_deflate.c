/* See shim_pdf_deflate.h. cairo 1.16's deflate stream (cairo-deflate-stream.c) calls deflateInit,
 * then deflate with Z_NO_FLUSH as its 16 KiB input buffer fills and Z_FINISH (repeatedly, while the
 * output buffer fills) when the stream closes, then deflateEnd; compress_dup in cairo-pdf-surface.c
 * calls compress for fonts and images. A stream of libcairo's gets a state of ours in place of zlib's;
 * it starts as zlib's does (the stream, then a status word) with a status zlib never uses, so that
 * deflate and deflateEnd tell the two apart. */
#define _GNU_SOURCE
#include "shim_pdf_deflate.h"
#include <dlfcn.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Content streams and fonts are gathered whole; a stream that grows past GATHER_LIMIT (an image's
 * pixels) is handed to zlib with what was gathered, so that a large picture is not held twice: with
 * a limit of 1 MiB the sample storybook's 6 MB picture raised the export's peak by 12 MiB. */
enum { LEVEL = 7, GATHER_LIMIT = 1 << 18, OURS = 0x6C646631 /* "ldf1"; zlib's states are 42 to 666 */ };

typedef struct {
    z_streamp strm;
    int status;
    unsigned char *in;
    size_t in_length, in_capacity;
    unsigned char *out;        /* compressed bytes not yet handed over start at out + out_sent */
    size_t out_length, out_capacity, out_sent;
    int compressed;            /* libdeflate compressed `in` */
    z_stream *zlib;            /* past GATHER_LIMIT: zlib compresses into `out` as input comes */
    int zlib_ended;
} whole_stream_t;

typedef int (*init_fn)(z_streamp, int, const char *, int);
typedef int (*deflate_fn)(z_streamp, int);
typedef int (*end_fn)(z_streamp);
typedef int (*compress_fn)(Bytef *, uLongf *, const Bytef *, uLong);

static init_fn zlib_init;
static deflate_fn zlib_deflate;
static end_fn zlib_end;
static compress_fn zlib_compress;
static void *cairo_base;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;
static pthread_key_t thread_end;
static __thread struct libdeflate_compressor *compressor;
static _Atomic uint64_t streams, bytes_in, bytes_out, handed_to_zlib;

static void free_compressor(void *c) { libdeflate_free_compressor(c); }

static void resolve(void) {
    zlib_init = (init_fn)dlsym(RTLD_NEXT, "deflateInit_");
    zlib_deflate = (deflate_fn)dlsym(RTLD_NEXT, "deflate");
    zlib_end = (end_fn)dlsym(RTLD_NEXT, "deflateEnd");
    zlib_compress = (compress_fn)dlsym(RTLD_NEXT, "compress");
    Dl_info info;
    void *cairo = dlsym(RTLD_DEFAULT, "cairo_pdf_surface_create");
    if (cairo && dladdr(cairo, &info)) cairo_base = info.dli_fbase;
    pthread_key_create(&thread_end, free_compressor);
}

static int from_cairo(const void *caller) {
    Dl_info info;
    return cairo_base && dladdr(caller, &info) && info.dli_fbase == cairo_base;
}

static struct libdeflate_compressor *this_threads_compressor(void) {
    if (!compressor) {
        compressor = libdeflate_alloc_compressor(LEVEL);
        if (compressor) pthread_setspecific(thread_end, compressor);
    }
    return compressor;
}

static whole_stream_t *ours(z_streamp strm) {
    whole_stream_t *s = strm ? (whole_stream_t *)strm->state : NULL;
    return s && s->status == OURS && s->strm == strm ? s : NULL;
}

shim_pdf_deflate_stats shim_pdf_deflate_totals(void) {
    return (shim_pdf_deflate_stats){ atomic_load(&streams), atomic_load(&bytes_in), atomic_load(&bytes_out),
                                     atomic_load(&handed_to_zlib) };
}

int deflateInit_(z_streamp strm, int level, const char *version, int stream_size) {
    pthread_once(&resolved, resolve);
    if (!strm || level != Z_DEFAULT_COMPRESSION || !from_cairo(__builtin_return_address(0)) || !this_threads_compressor())
        return zlib_init(strm, level, version, stream_size);
    if (!version || version[0] != ZLIB_VERSION[0] || stream_size != (int)sizeof(z_stream)) return Z_VERSION_ERROR;
    whole_stream_t *s = calloc(1, sizeof *s);
    if (!s) return Z_MEM_ERROR;
    s->strm = strm;
    s->status = OURS;
    strm->state = (struct internal_state *)s;
    strm->total_in = strm->total_out = 0;
    strm->msg = Z_NULL;
    strm->data_type = Z_UNKNOWN;
    return Z_OK;
}

/* zlib compresses `n` bytes at `in` (with `flush`), its output appended to `out`. */
static int zlib_into_out(whole_stream_t *s, const unsigned char *in, size_t n, int flush) {
    z_stream *z = s->zlib;
    z->next_in = (Bytef *)in;
    z->avail_in = (uInt)n;
    for (;;) {
        if (s->out_capacity - s->out_length < 65536) {
            size_t capacity = s->out_capacity ? s->out_capacity * 2 : 131072;
            unsigned char *out = realloc(s->out, capacity);
            if (!out) return Z_MEM_ERROR;
            s->out = out;
            s->out_capacity = capacity;
        }
        z->next_out = s->out + s->out_length;
        z->avail_out = (uInt)(s->out_capacity - s->out_length);
        int ret = zlib_deflate(z, flush);
        s->out_length = (size_t)(z->next_out - s->out);
        if (ret == Z_STREAM_END) { s->zlib_ended = 1; return Z_OK; }
        if (ret != Z_OK && ret != Z_BUF_ERROR) return ret;
        if (z->avail_in == 0 && z->avail_out > 0 && flush != Z_FINISH) return Z_OK;
    }
}

static int hand_to_zlib(whole_stream_t *s) {
    s->zlib = calloc(1, sizeof *s->zlib);
    if (!s->zlib || zlib_init(s->zlib, Z_DEFAULT_COMPRESSION, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) return Z_MEM_ERROR;
    atomic_fetch_add(&handed_to_zlib, 1);
    int ret = zlib_into_out(s, s->in, s->in_length, Z_NO_FLUSH);
    free(s->in);
    s->in = NULL;
    s->in_length = s->in_capacity = 0;
    return ret;
}

static int take_input(whole_stream_t *s, z_streamp strm) {
    if (!strm->avail_in) return Z_OK;
    if (!s->zlib && s->in_length + strm->avail_in > GATHER_LIMIT) {
        int ret = hand_to_zlib(s);
        if (ret != Z_OK) return ret;
    }
    if (s->zlib) {
        int ret = zlib_into_out(s, strm->next_in, strm->avail_in, Z_NO_FLUSH);
        if (ret != Z_OK) return ret;
    } else {
        if (s->in_length + strm->avail_in > s->in_capacity) {
            size_t capacity = s->in_capacity ? s->in_capacity : 65536;
            while (capacity < s->in_length + strm->avail_in) capacity *= 2;
            unsigned char *in = realloc(s->in, capacity);
            if (!in) return Z_MEM_ERROR;
            s->in = in;
            s->in_capacity = capacity;
        }
        memcpy(s->in + s->in_length, strm->next_in, strm->avail_in);
        s->in_length += strm->avail_in;
    }
    strm->next_in += strm->avail_in;
    strm->total_in += strm->avail_in;
    strm->avail_in = 0;
    return Z_OK;
}

/* As much of the compressed bytes as the caller has room for. */
static void hand_over(whole_stream_t *s, z_streamp strm) {
    size_t n = s->out_length - s->out_sent;
    if (n > strm->avail_out) n = strm->avail_out;
    memcpy(strm->next_out, s->out + s->out_sent, n);
    s->out_sent += n;
    strm->next_out += n;
    strm->avail_out -= (uInt)n;
    strm->total_out += n;
    if (s->zlib && s->out_sent > s->out_capacity / 2) {
        memmove(s->out, s->out + s->out_sent, s->out_length - s->out_sent);
        s->out_length -= s->out_sent;
        s->out_sent = 0;
    }
}

int deflate(z_streamp strm, int flush) {
    pthread_once(&resolved, resolve);
    whole_stream_t *s = ours(strm);
    if (!s) return zlib_deflate(strm, flush);
    if (!s->compressed) {
        int ret = take_input(s, strm);
        if (ret != Z_OK) return ret;
    }
    /* cairo asks for nothing between; a flush that must leave the stream open cannot be given. */
    if (flush != Z_NO_FLUSH && flush != Z_FINISH) return Z_STREAM_ERROR;
    if (s->zlib) {
        if (flush == Z_FINISH && !s->zlib_ended) {
            int ret = zlib_into_out(s, NULL, 0, Z_FINISH);
            if (ret != Z_OK) return ret;
        }
        hand_over(s, strm);
        return flush == Z_FINISH && s->zlib_ended && s->out_sent == s->out_length ? Z_STREAM_END : Z_OK;
    }
    if (flush == Z_NO_FLUSH) return Z_OK;
    if (!s->compressed) {
        struct libdeflate_compressor *c = this_threads_compressor();
        size_t bound = libdeflate_zlib_compress_bound(c, s->in_length);
        s->out = malloc(bound);
        if (!s->out) return Z_MEM_ERROR;
        s->out_capacity = bound;
        s->out_length = libdeflate_zlib_compress(c, s->in, s->in_length, s->out, bound);
        if (!s->out_length) return Z_STREAM_ERROR;
        s->compressed = 1;
        atomic_fetch_add(&streams, 1);
        atomic_fetch_add(&bytes_in, s->in_length);
        atomic_fetch_add(&bytes_out, s->out_length);
        free(s->in);
        s->in = NULL;
    }
    if (s->out_sent < s->out_length && strm->avail_out == 0) return Z_BUF_ERROR;
    hand_over(s, strm);
    return s->out_sent == s->out_length ? Z_STREAM_END : Z_OK;
}

int deflateEnd(z_streamp strm) {
    pthread_once(&resolved, resolve);
    whole_stream_t *s = ours(strm);
    if (!s) return zlib_end(strm);
    int done = s->zlib ? s->zlib_ended && s->out_sent == s->out_length : s->compressed && s->out_sent == s->out_length;
    if (s->zlib) {
        zlib_end(s->zlib);
        free(s->zlib);
    }
    free(s->in);
    free(s->out);
    free(s);
    strm->state = Z_NULL;
    return done ? Z_OK : Z_DATA_ERROR;
}

int compress(Bytef *dest, uLongf *dest_length, const Bytef *source, uLong source_length) {
    pthread_once(&resolved, resolve);
    struct libdeflate_compressor *c;
    if (!from_cairo(__builtin_return_address(0)) || !(c = this_threads_compressor()))
        return zlib_compress(dest, dest_length, source, source_length);
    size_t n = libdeflate_zlib_compress(c, source, source_length, dest, *dest_length);
    /* cairo sizes `dest` by zlib's bound; libdeflate's may not fit it there, zlib then does. */
    if (!n) return zlib_compress(dest, dest_length, source, source_length);
    *dest_length = n;
    atomic_fetch_add(&streams, 1);
    atomic_fetch_add(&bytes_in, source_length);
    atomic_fetch_add(&bytes_out, n);
    return Z_OK;
}
