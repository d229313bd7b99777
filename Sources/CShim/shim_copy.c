#define _GNU_SOURCE
#include "shim_copy.h"
#include <fcntl.h>
#include <unistd.h>

ssize_t shim_copy_file_range_at(int in, off_t *in_offset, int out, off_t *out_offset, size_t length) {
    return copy_file_range(in, in_offset, out, out_offset, length, 0);
}

int shim_start_writeback(int fd, off_t offset, off_t length) {
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
}
