/* C library calls that Swift's module of the C library does not declare: glibc declares them
 * only under _GNU_SOURCE, which that module is built without. Used by AmberCore's
 * Platform/Syscalls.swift and nothing else. */
#ifndef AMBER_CSYSTEM_SHIMS_H
#define AMBER_CSYSTEM_SHIMS_H

#include <stdint.h>

#if defined(__linux__)
/* sync_file_range(2), as glibc's <fcntl.h> declares it under _GNU_SOURCE. */
int sync_file_range(int fd, int64_t offset, int64_t count, unsigned int flags);

/* Starts the write-back of the dirty pages of bytes [offset, offset + count) of fd to the
 * device, without waiting for it (SYNC_FILE_RANGE_WRITE). 0, or -1 with errno. */
static inline int csystem_start_write_back(int fd, int64_t offset, int64_t count) {
    return sync_file_range(fd, offset, count, 2u /* SYNC_FILE_RANGE_WRITE */);
}
#endif

#endif
