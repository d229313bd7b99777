#ifndef BOOKRENDER_SHIM_MEMORY_H
#define BOOKRENDER_SHIM_MEMORY_H
#include <cairo.h>

/* An RGB24 image surface whose pixels are never meant to be painted: the PDF path hands cairo a
   JPEG's bytes as mime data on it, and cairo reads only its size. The pixel memory is an anonymous
   mapping that is never touched, so it costs address space, not RAM, however long cairo keeps the
   surface; it is unmapped when cairo destroys the surface. NULL when the mapping fails. */
cairo_surface_t *shim_blank_surface(int width, int height);
#endif
