#ifndef BOOKRENDER_SHIM_BENEATH_H
#define BOOKRENDER_SHIM_BENEATH_H

/* openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (glibc has no wrapper): opens `path`
   relative to the folder `dirfd` through no symbolic link at all (ELOOP) and never above that
   folder (a `..` that climbs out fails with EXDEV). `flags` are open(2)'s
   (O_CLOEXEC is added). Returns the descriptor, or -1 with errno set; ENOSYS when the kernel (or a
   sandbox's filter) has no openat2, and the caller walks the path itself instead. */
int shim_open_beneath(int dirfd, const char *path, int flags);

/* O_PATH, which glibc declares only under _GNU_SOURCE (out of Swift's sight): a descriptor that
   names a file without opening it for reading, so a FIFO or a device is looked at, not opened. */
int shim_o_path(void);

#endif
