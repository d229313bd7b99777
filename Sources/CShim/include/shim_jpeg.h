#ifndef BOOKRENDER_SHIM_JPEG_H
#define BOOKRENDER_SHIM_JPEG_H
#include <stddef.h>
#include <stdint.h>
/* (filled in by the image pipeline) */
#endif
