#include "shim_memory.h"
#include <stdlib.h>
#include <sys/mman.h>

struct mapping { void *address; size_t length; };
static cairo_user_data_key_t mapping_key;

static void unmap(void *data) {
    struct mapping *m = data;
    munmap(m->address, m->length);
    free(m);
}

cairo_surface_t *shim_blank_surface(int width, int height) {
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, width);
    if (stride <= 0 || height <= 0) return NULL;
    size_t length = (size_t)stride * (size_t)height;
    void *address = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (address == MAP_FAILED) return NULL;
    struct mapping *m = malloc(sizeof *m);
    if (!m) { munmap(address, length); return NULL; }
    m->address = address;
    m->length = length;
    cairo_surface_t *surface = cairo_image_surface_create_for_data(address, CAIRO_FORMAT_RGB24, width, height, stride);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS ||
        cairo_surface_set_user_data(surface, &mapping_key, m, unmap) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        unmap(m);
        return NULL;
    }
    return surface;
}
