#ifndef BOOKRENDER_SHIM_COPY_H
#define BOOKRENDER_SHIM_COPY_H
#include <stddef.h>
#include <sys/types.h>

/* copy_file_range(2), which glibc declares only under _GNU_SOURCE (out of Swift's sight):
   `length` bytes from `in` at `*in_offset` to `out` at `*out_offset` (both advanced), leaving
   the files' positions alone. Returns what the call returns; errno is left as it sets it. */
ssize_t shim_copy_file_range_at(int in, off_t *in_offset, int out, off_t *out_offset, size_t length);

/* sync_file_range(2) with SYNC_FILE_RANGE_WRITE (also _GNU_SOURCE only): starts writing the
   range's dirty pages to disk without waiting for them. */
int shim_start_writeback(int fd, off_t offset, off_t length);

#endif
