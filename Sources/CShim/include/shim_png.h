#ifndef BOOKRENDER_SHIM_PNG_H
#define BOOKRENDER_SHIM_PNG_H
#include <stddef.h>
#include <stdint.h>
/* (filled in by the image pipeline) */
#endif
