#include "shim_http.h"
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Debian 12's libcurl4 (OpenSSL); the unversioned name is there when the -dev package is. */
static const char *const library_names[] = { "libcurl.so.4", "libcurl.so" };

static struct {
    CURLcode (*global_init)(long);
    CURL *(*init)(void);
    CURLcode (*setopt)(CURL *, CURLoption, ...);
    CURLcode (*perform)(CURL *);
    CURLcode (*getinfo)(CURL *, CURLINFO, ...);
    void (*cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    const char *(*strerror)(CURLcode);
} curl;
static int loaded;
static char load_error[400];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *lib = NULL;
    for (size_t i = 0; i < sizeof library_names / sizeof *library_names && !lib; i++) {
        lib = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
        /* The versioned name's failure is the one worth telling. */
        const char *why = lib ? NULL : dlerror();
        if (i == 0 && why) snprintf(load_error, sizeof load_error, "%s", why);
    }
    if (!lib) return;
    curl.global_init = (CURLcode (*)(long))dlsym(lib, "curl_global_init");
    curl.init = (CURL *(*)(void))dlsym(lib, "curl_easy_init");
    curl.setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(lib, "curl_easy_setopt");
    curl.perform = (CURLcode (*)(CURL *))dlsym(lib, "curl_easy_perform");
    curl.getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(lib, "curl_easy_getinfo");
    curl.cleanup = (void (*)(CURL *))dlsym(lib, "curl_easy_cleanup");
    curl.slist_append = (struct curl_slist *(*)(struct curl_slist *, const char *))dlsym(lib, "curl_slist_append");
    curl.slist_free_all = (void (*)(struct curl_slist *))dlsym(lib, "curl_slist_free_all");
    curl.strerror = (const char *(*)(CURLcode))dlsym(lib, "curl_easy_strerror");
    if (!curl.global_init || !curl.init || !curl.setopt || !curl.perform || !curl.getinfo || !curl.cleanup
        || !curl.slist_append || !curl.slist_free_all || !curl.strerror) {
        snprintf(load_error, sizeof load_error, "libcurl lacks a function bookrender uses");
        return;
    }
    /* Not thread-safe in older libcurl: once, before any handle. */
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

typedef struct { char *data; size_t length; size_t capacity; int failed; } buffer;

static int append(buffer *b, const char *data, size_t length) {
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + length + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) { b->failed = 1; return 0; }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, length);
    b->length += length;
    b->data[b->length] = 0;
    return 1;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    return append(user, data, size * count) ? size * count : 0;
}

/* A status line starts a new response (after a redirect or a 100 Continue): keep only the last. */
static size_t on_header(char *data, size_t size, size_t count, void *user) {
    buffer *b = user;
    if (size * count >= 5 && memcmp(data, "HTTP/", 5) == 0) b->length = 0;
    return append(b, data, size * count) ? size * count : 0;
}

int shim_http_perform(const char *method, const char *url, const char *const *headers, int header_count,
                      const void *body, size_t body_length, long timeout_ms, shim_http_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(result->message, sizeof result->message, "%s", load_error);
        return -1;
    }
    CURL *handle = curl.init();
    if (!handle) {
        snprintf(result->message, sizeof result->message, "curl_easy_init failed");
        return CURLE_FAILED_INIT;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    /* No "Expect: 100-continue" wait before a large body. */
    list = curl.slist_append(list, "Expect:");
    buffer received = {0}, header_lines = {0};
    char error[CURL_ERROR_SIZE] = {0};

    curl.setopt(handle, CURLOPT_URL, url);
    curl.setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    if (body) {
        curl.setopt(handle, CURLOPT_POSTFIELDS, body);
        curl.setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    }
    curl.setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
    curl.setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl.setopt(handle, CURLOPT_WRITEDATA, &received);
    curl.setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl.setopt(handle, CURLOPT_HEADERDATA, &header_lines);
    curl.setopt(handle, CURLOPT_ERRORBUFFER, error);

    CURLcode code = curl.perform(handle);
    if (code == CURLE_OK) {
        curl.getinfo(handle, CURLINFO_RESPONSE_CODE, &result->status);
    } else {
        result->timed_out = code == CURLE_OPERATION_TIMEDOUT;
        snprintf(result->message, sizeof result->message, "%s", error[0] ? error : curl.strerror(code));
    }
    if (received.failed || header_lines.failed) snprintf(result->message, sizeof result->message, "out of memory");
    result->body = received.data;
    result->body_length = received.length;
    result->headers = header_lines.data;
    result->headers_length = header_lines.length;
    curl.cleanup(handle);
    curl.slist_free_all(list);
    return code;
}

void shim_http_result_free(shim_http_result *result) {
    free(result->body);
    free(result->headers);
    result->body = result->headers = NULL;
}
