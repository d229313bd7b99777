#include "qpdf_loaded.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* The functions of qpdf-c.h the program calls: F(return type, name, parameters, arguments), and
   V(name, parameters, arguments) for those that return nothing. */
#define QPDF_FUNCTIONS(F, V) \
    F(qpdf_data, qpdf_init, (void), ()) \
    V(qpdf_cleanup, (qpdf_data *q), (q)) \
    F(qpdf_error, qpdf_get_error, (qpdf_data q), (q)) \
    F(char const *, qpdf_get_error_full_text, (qpdf_data q, qpdf_error e), (q, e)) \
    F(QPDF_BOOL, qpdf_has_error, (qpdf_data q), (q)) \
    F(QPDF_BOOL, qpdf_more_warnings, (qpdf_data q), (q)) \
    F(qpdf_error, qpdf_next_warning, (qpdf_data q), (q)) \
    V(qpdf_silence_errors, (qpdf_data q), (q)) \
    V(qpdf_set_attempt_recovery, (qpdf_data q, QPDF_BOOL v), (q, v)) \
    F(QPDF_ERROR_CODE, qpdf_read, (qpdf_data q, char const *f, char const *p), (q, f, p)) \
    F(QPDF_ERROR_CODE, qpdf_read_memory, (qpdf_data q, char const *d, char const *b, unsigned long long n, char const *p), (q, d, b, n, p)) \
    F(QPDF_ERROR_CODE, qpdf_init_write, (qpdf_data q, char const *f), (q, f)) \
    V(qpdf_set_object_stream_mode, (qpdf_data q, enum qpdf_object_stream_e m), (q, m)) \
    V(qpdf_set_deterministic_ID, (qpdf_data q, QPDF_BOOL v), (q, v)) \
    F(QPDF_ERROR_CODE, qpdf_write, (qpdf_data q), (q)) \
    F(int, qpdf_get_num_pages, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_get_page_n, (qpdf_data q, size_t i), (q, i)) \
    F(qpdf_oh, qpdf_get_object_by_id, (qpdf_data q, int id, int g), (q, id, g)) \
    F(qpdf_oh, qpdf_get_root, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_get_trailer, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_make_indirect_object, (qpdf_data q, qpdf_oh o), (q, o)) \
    V(qpdf_oh_release, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(qpdf_oh, qpdf_oh_parse, (qpdf_data q, char const *s), (q, s)) \
    F(char const *, qpdf_oh_unparse_resolved, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_array, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_dictionary, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_indirect, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_integer, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_null, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_number, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_stream, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_string, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data q, qpdf_oh o, char const *k), (q, o, k)) \
    F(qpdf_oh, qpdf_oh_get_key, (qpdf_data q, qpdf_oh o, char const *k), (q, o, k)) \
    F(qpdf_oh, qpdf_oh_get_dict, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(int, qpdf_oh_get_object_id, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(long long, qpdf_oh_get_int_value, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(double, qpdf_oh_get_numeric_value, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(char const *, qpdf_oh_get_binary_utf8_value, (qpdf_data q, qpdf_oh o, size_t *n), (q, o, n)) \
    F(int, qpdf_oh_get_array_n_items, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data q, qpdf_oh o, int n), (q, o, n)) \
    V(qpdf_oh_append_item, (qpdf_data q, qpdf_oh o, qpdf_oh i), (q, o, i)) \
    V(qpdf_oh_replace_key, (qpdf_data q, qpdf_oh o, char const *k, qpdf_oh i), (q, o, k, i)) \
    V(qpdf_oh_remove_key, (qpdf_data q, qpdf_oh o, char const *k), (q, o, k)) \
    V(qpdf_oh_replace_stream_data, (qpdf_data q, qpdf_oh o, unsigned char const *b, size_t n, qpdf_oh f, qpdf_oh p), (q, o, b, n, f, p)) \
    F(qpdf_oh, qpdf_oh_new_array, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_oh_new_dictionary, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_oh_new_null, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_oh_new_stream, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_oh_new_integer, (qpdf_data q, long long v), (q, v)) \
    F(qpdf_oh, qpdf_oh_new_name, (qpdf_data q, char const *s), (q, s)) \
    F(qpdf_oh, qpdf_oh_new_real_from_string, (qpdf_data q, char const *s), (q, s)) \
    F(qpdf_oh, qpdf_oh_new_string, (qpdf_data q, char const *s), (q, s)) \
    F(qpdf_oh, qpdf_oh_new_unicode_string, (qpdf_data q, char const *s), (q, s))

#define POINTER(ret, name, params, args) static ret (*loaded_##name) params;
#define VOID_POINTER(name, params, args) POINTER(void, name, params, args)
QPDF_FUNCTIONS(POINTER, VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char problem[512];

static void load(void) {
    /* RTLD_LOCAL: lookups from the library find its own definitions, never these. */
    void *library = dlopen("libqpdf.so.29", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libqpdf.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "cannot load libqpdf (%s); install it with scripts/install-deps.sh", dlerror());
        return;
    }
#define RESOLVE(ret, name, params, args) \
    if (!(loaded_##name = (ret (*) params)dlsym(library, #name))) { \
        snprintf(problem, sizeof problem, "libqpdf has no %s: qpdf 11 or later is needed", #name); \
        return; \
    }
#define VOID_RESOLVE(name, params, args) RESOLVE(void, name, params, args)
    QPDF_FUNCTIONS(RESOLVE, VOID_RESOLVE)
}

static void *load_in_background(void *unused) {
    (void)unused;
    pthread_once(&once, load);
    return NULL;
}

static void start_loading(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    /* Without a thread, the first call loads it instead. */
    (void)pthread_create(&thread, &attributes, load_in_background, NULL);
    pthread_attr_destroy(&attributes);
}

void qpdf_loader_preload(void) {
    static pthread_once_t started = PTHREAD_ONCE_INIT;
    pthread_once(&started, start_loading);
}

const char *qpdf_loader_error(void) {
    pthread_once(&once, load);
    return problem[0] ? problem : NULL;
}

static void ensure_loaded(void) {
    const char *error = qpdf_loader_error();
    if (error) {
        fprintf(stderr, "bookrender: %s\n", error);
        abort();
    }
}

#define FORWARD(ret, name, params, args) \
    ret name params { ensure_loaded(); return loaded_##name args; }
#define VOID_FORWARD(name, params, args) \
    void name params { ensure_loaded(); loaded_##name args; }
QPDF_FUNCTIONS(FORWARD, VOID_FORWARD)
