#include "shim_poppler.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

/* Debian 12's poppler-glib; the unversioned name is there when the -dev package is. */
static const char *const library_names[] = { "libpoppler-glib.so.8", "libpoppler-glib.so" };

static struct {
    shim_poppler_document *(*new_from_file)(const char *, const char *, GError **);
    int (*get_n_pages)(shim_poppler_document *);
    shim_poppler_page *(*get_page)(shim_poppler_document *, int);
    void (*get_size)(shim_poppler_page *, double *, double *);
    void (*render)(shim_poppler_page *, cairo_t *);
} poppler;
static int loaded;
static const char *load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *lib = NULL;
    static char first_error[512];
    for (size_t i = 0; i < sizeof library_names / sizeof *library_names && !lib; i++) {
        lib = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
        /* The versioned name's failure is the one worth telling. */
        const char *why = lib ? NULL : dlerror();
        if (i == 0 && why) snprintf(first_error, sizeof first_error, "%s", why);
    }
    if (!lib) { load_error = first_error; return; }
    poppler.new_from_file = dlsym(lib, "poppler_document_new_from_file");
    poppler.get_n_pages = dlsym(lib, "poppler_document_get_n_pages");
    poppler.get_page = dlsym(lib, "poppler_document_get_page");
    poppler.get_size = dlsym(lib, "poppler_page_get_size");
    poppler.render = dlsym(lib, "poppler_page_render");
    if (!poppler.new_from_file || !poppler.get_n_pages || !poppler.get_page || !poppler.get_size || !poppler.render) {
        load_error = "libpoppler-glib lacks a function bookrender uses";
        return;
    }
    loaded = 1;
}

int shim_poppler_load(const char **why) {
    pthread_once(&once, load);
    if (why) *why = loaded ? NULL : load_error;
    return loaded;
}

shim_poppler_document *shim_poppler_document_new_from_file(const char *uri, const char *password, GError **error) {
    return poppler.new_from_file(uri, password, error);
}

int shim_poppler_document_get_n_pages(shim_poppler_document *document) { return poppler.get_n_pages(document); }

shim_poppler_page *shim_poppler_document_get_page(shim_poppler_document *document, int index) {
    return poppler.get_page(document, index);
}

void shim_poppler_page_get_size(shim_poppler_page *page, double *width, double *height) {
    poppler.get_size(page, width, height);
}

void shim_poppler_page_render(shim_poppler_page *page, cairo_t *cr) { poppler.render(page, cr); }
