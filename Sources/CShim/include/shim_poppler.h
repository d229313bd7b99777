#ifndef BOOKRENDER_SHIM_POPPLER_H
#define BOOKRENDER_SHIM_POPPLER_H
#include <cairo.h>
#include <glib.h>

/* poppler-glib, opened on first use instead of linked. Only `compare` and the golden checks
   draw PDFs with it; linked, it loaded poppler with NSS, lcms, openjpeg and libtiff into every
   bookrender process, 4.6 ms of each start (an export of a picture book takes about 100 ms). */
typedef struct shim_poppler_document shim_poppler_document;
typedef struct shim_poppler_page shim_poppler_page;

/* Loads the library once (thread-safe). 1 when it is there; otherwise 0 with the loader's
   message in `why` (static storage, may be NULL). */
int shim_poppler_load(const char **why);

/* poppler_document_new_from_file, _get_n_pages, _get_page, poppler_page_get_size and _render;
   documents and pages are GObjects, released with g_object_unref. Call only after a load
   that returned 1. */
shim_poppler_document *shim_poppler_document_new_from_file(const char *uri, const char *password, GError **error);
int shim_poppler_document_get_n_pages(shim_poppler_document *document);
shim_poppler_page *shim_poppler_document_get_page(shim_poppler_document *document, int index);
void shim_poppler_page_get_size(shim_poppler_page *page, double *width, double *height);
void shim_poppler_page_render(shim_poppler_page *page, cairo_t *cr);

#endif
