#ifndef BOOKRENDER_SHIM_COPY_H
#define BOOKRENDER_SHIM_COPY_H
#include <stddef.h>
#include <sys/types.h>

/* copy_file_range(2), which glibc declares only under _GNU_SOURCE (out of Swift's sight):
   `length` bytes from `in` at `*in_offset` (advanced) to `out` at its file position. Returns
   what the call returns; errno is left as it sets it. */
ssize_t shim_copy_file_range(int in, off_t *in_offset, int out, size_t length);

#endif
