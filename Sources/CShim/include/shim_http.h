#ifndef SHIM_HTTP_H
#define SHIM_HTTP_H

#include <stddef.h>

/* One HTTP exchange through libcurl, opened with dlopen on first use: only the illustration
   providers talk HTTP, and linking libcurl would load it, TLS and Kerberos into every run. */
typedef struct {
    long status;             /* the last response's status code */
    char *headers;           /* the last response's header lines, as received */
    size_t headers_length;
    char *body;
    size_t body_length;
    int timed_out;           /* the timeout ran out */
    char message[512];       /* libcurl's error text, or why libcurl could not be loaded */
} shim_http_result;

/* 0: a response came back (whatever its status); -1: libcurl could not be loaded; otherwise the
   CURLcode of the failure. `headers` are "Name: value" lines. The result must be freed. */
int shim_http_perform(const char *method, const char *url, const char *const *headers, int header_count,
                      const void *body, size_t body_length, long timeout_ms, shim_http_result *result);
void shim_http_result_free(shim_http_result *result);

#endif
