#ifndef BOOKRENDER_CCURL_H
#define BOOKRENDER_CCURL_H
/* libcurl. curl_easy_setopt and curl_easy_getinfo take their value as a variadic argument, which
   Swift cannot pass: these take it typed. */
#include <curl/curl.h>

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
/* Strings, lists, buffers and callback data. */
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static const long ccurl_global_default = CURL_GLOBAL_DEFAULT;

#endif
