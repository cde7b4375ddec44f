/*
 * recorder.c — the power-loss test's recorder (issue 42, R19): an LD_PRELOAD shim over the C
 * library's file-system calls that logs every call touching a path under $AMBER_PL_WATCH, with
 * its arguments, its result and the bytes written, one line per call, to $AMBER_PL_LOG.
 *
 * libamber is Swift with the standard library linked in statically, but glibc is dynamic: its
 * calls to open, write, fsync, rename... go through the PLT, so a preloaded definition
 * replaces them (crashstates.py refuses a log without a single write: that would mean the calls
 * went around the shim). Each wrapper calls the real function (dlsym RTLD_NEXT), then logs.
 *
 * A line is tab-separated: the call's name, then its fields (see each wrapper), then "=" and the
 * result and errno. Paths are logged as given (the engine uses absolute paths); bytes in hex.
 * Descriptors are followed from the open that named a watched path to their close, so a write
 * is logged with the path and the offset it wrote at.
 *
 * Build: cc -shared -fPIC -o recorder.so recorder.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FDS 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1;
static char watch[4096];
static size_t watch_len;
/* The watched path each open descriptor names, NULL for those not watched. */
static char *fd_paths[MAX_FDS];

__attribute__((constructor)) static void recorder_start(void) {
    const char *log_path = getenv("AMBER_PL_LOG");
    const char *w = getenv("AMBER_PL_WATCH");
    if (!log_path || !w) return;
    snprintf(watch, sizeof watch, "%s", w);
    watch_len = strlen(watch);
    /* The raw system call: the shim's own open must not log itself. */
    log_fd = (int)syscall(SYS_openat, AT_FDCWD, log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

static int watched(const char *path) {
    return log_fd >= 0 && path && watch_len > 0 && strncmp(path, watch, watch_len) == 0
           && (path[watch_len] == '\0' || path[watch_len] == '/');
}

static const char *fd_path(int fd) {
    return fd >= 0 && fd < MAX_FDS ? fd_paths[fd] : NULL;
}

/* Appends one formatted line to the log, whole, in one write. */
static void log_line(const char *format, ...) {
    char *text = NULL;
    va_list args;
    int n;
    va_start(args, format);
    n = vasprintf(&text, format, args);
    va_end(args);
    if (n < 0) return;
    pthread_mutex_lock(&lock);
    {
        size_t done = 0;
        while (done < (size_t)n) {
            long w = syscall(SYS_write, log_fd, text + done, (size_t)n - done);
            if (w <= 0) break;
            done += (size_t)w;
        }
    }
    pthread_mutex_unlock(&lock);
    free(text);
}

/* The bytes as lowercase hex, in a buffer the caller frees (NULL if out of memory). */
static char *hex(const void *bytes, size_t size) {
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = bytes;
    char *text = malloc(size * 2 + 1);
    size_t i;
    if (!text) return NULL;
    for (i = 0; i < size; i++) {
        text[2 * i] = digits[b[i] >> 4];
        text[2 * i + 1] = digits[b[i] & 15];
    }
    text[size * 2] = '\0';
    return text;
}

static void remember_fd(int fd, const char *path) {
    if (fd < 0 || fd >= MAX_FDS) return;
    free(fd_paths[fd]);
    fd_paths[fd] = path ? strdup(path) : NULL;
}

/* The next definition of `name`, the C library's, looked up once. */
#define REAL(name) \
    static __typeof__(&name) real_##name; \
    if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

/* An open of a watched path: "open PATH FLAGS MODE = FD ERRNO". */
static int after_open(const char *call, const char *path, int flags, mode_t mode, int fd, int err) {
    if (watched(path)) {
        log_line("%s\t%s\t%d\t%o\t=\t%d\t%d\n", call, path, flags, (unsigned)mode, fd, err);
        if (fd >= 0) remember_fd(fd, path);
    } else if (fd >= 0) {
        remember_fd(fd, NULL);
    }
    errno = err;
    return fd;
}

static mode_t mode_argument(int flags, va_list args) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(args, unsigned) : 0;
}

int open(const char *path, int flags, ...) {
    va_list args;
    mode_t mode;
    int fd;
    REAL(open);
    va_start(args, flags);
    mode = mode_argument(flags, args);
    va_end(args);
    fd = real_open(path, flags, mode);
    return after_open("open", path, flags, mode, fd, errno);
}

int open64(const char *path, int flags, ...) {
    va_list args;
    mode_t mode;
    int fd;
    REAL(open64);
    va_start(args, flags);
    mode = mode_argument(flags, args);
    va_end(args);
    fd = real_open64(path, flags, mode);
    return after_open("open", path, flags, mode, fd, errno);
}

/* openat with a relative path and a descriptor other than AT_FDCWD is logged under the
 * directory's path when that directory is watched. */
static int after_openat(int dirfd, const char *path, int flags, mode_t mode, int fd, int err) {
    if (path && path[0] != '/' && dirfd != AT_FDCWD && fd_path(dirfd)) {
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", fd_path(dirfd), path);
        return after_open("open", full, flags, mode, fd, err);
    }
    return after_open("open", path, flags, mode, fd, err);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list args;
    mode_t mode;
    int fd;
    REAL(openat);
    va_start(args, flags);
    mode = mode_argument(flags, args);
    va_end(args);
    fd = real_openat(dirfd, path, flags, mode);
    return after_openat(dirfd, path, flags, mode, fd, errno);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list args;
    mode_t mode;
    int fd;
    REAL(openat64);
    va_start(args, flags);
    mode = mode_argument(flags, args);
    va_end(args);
    fd = real_openat64(dirfd, path, flags, mode);
    return after_openat(dirfd, path, flags, mode, fd, errno);
}

/* A write at `offset` of a watched descriptor: "write PATH FD OFFSET HEX = N ERRNO". */
static void log_write(const char *call, int fd, off_t offset, const void *bytes, ssize_t n, int err) {
    const char *path = fd_path(fd);
    char *text;
    if (!path) return;
    text = hex(bytes, n > 0 ? (size_t)n : 0);
    log_line("%s\t%s\t%d\t%lld\t%s\t=\t%zd\t%d\n", call, path, fd, (long long)offset, text ? text : "", n, err);
    free(text);
}

ssize_t write(int fd, const void *bytes, size_t size) {
    off_t offset;
    ssize_t n;
    int err;
    REAL(write);
    offset = fd_path(fd) ? lseek(fd, 0, SEEK_CUR) : 0;
    n = real_write(fd, bytes, size);
    err = errno;
    log_write("write", fd, offset, bytes, n, err);
    errno = err;
    return n;
}

ssize_t pwrite(int fd, const void *bytes, size_t size, off_t offset) {
    ssize_t n;
    int err;
    REAL(pwrite);
    n = real_pwrite(fd, bytes, size, offset);
    err = errno;
    log_write("write", fd, offset, bytes, n, err);
    errno = err;
    return n;
}

ssize_t pwrite64(int fd, const void *bytes, size_t size, off_t offset) {
    ssize_t n;
    int err;
    REAL(pwrite64);
    n = real_pwrite64(fd, bytes, size, offset);
    err = errno;
    log_write("write", fd, offset, bytes, n, err);
    errno = err;
    return n;
}

/* A call on a descriptor: "CALL PATH FD ARG = RESULT ERRNO". */
static int log_fd_call(const char *call, int fd, long long arg, int result, int err) {
    const char *path = fd_path(fd);
    if (path) log_line("%s\t%s\t%d\t%lld\t=\t%d\t%d\n", call, path, fd, arg, result, err);
    errno = err;
    return result;
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate);
    int r = real_ftruncate(fd, length);
    return log_fd_call("ftruncate", fd, (long long)length, r, errno);
}

int fsync(int fd) {
    REAL(fsync);
    int r = real_fsync(fd);
    return log_fd_call("fsync", fd, 0, r, errno);
}

int fdatasync(int fd) {
    REAL(fdatasync);
    int r = real_fdatasync(fd);
    return log_fd_call("fdatasync", fd, 0, r, errno);
}

/* Starts write-back without waiting: no durability, logged to show where it happens. */
int sync_file_range(int fd, off_t offset, off_t count, unsigned int flags) {
    REAL(sync_file_range);
    int r = real_sync_file_range(fd, offset, count, flags);
    return log_fd_call("sync_file_range", fd, (long long)flags, r, errno);
}

int close(int fd) {
    REAL(close);
    int r = real_close(fd);
    int err = errno;
    log_fd_call("close", fd, 0, r, err);
    remember_fd(fd, NULL);
    errno = err;
    return r;
}

/* A call on one or two paths: "CALL FROM TO ARG = RESULT ERRNO" (TO "-" for one path). */
static int log_path_call(const char *call, const char *from, const char *to, long long arg, int result, int err) {
    if (watched(from) || watched(to))
        log_line("%s\t%s\t%s\t%lld\t=\t%d\t%d\n", call, from ? from : "-", to ? to : "-", arg, result, err);
    errno = err;
    return result;
}

int rename(const char *from, const char *to) {
    REAL(rename);
    int r = real_rename(from, to);
    return log_path_call("rename", from, to, 0, r, errno);
}

/* The *at calls are logged when both descriptors are AT_FDCWD or the paths are absolute (the
 * engine's case); anything else is logged as "unresolved", which crashstates.py refuses. */
static int resolvable(int dirfd, const char *path) {
    return dirfd == AT_FDCWD || (path && path[0] == '/');
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(renameat);
    int r = real_renameat(fromfd, from, tofd, to);
    return log_path_call(resolvable(fromfd, from) && resolvable(tofd, to) ? "rename" : "unresolved", from, to, 0, r,
                         errno);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
    REAL(renameat2);
    int r = real_renameat2(fromfd, from, tofd, to, flags);
    return log_path_call(resolvable(fromfd, from) && resolvable(tofd, to) && flags == 0 ? "rename" : "unresolved",
                         from, to, flags, r, errno);
}

int link(const char *from, const char *to) {
    REAL(link);
    int r = real_link(from, to);
    return log_path_call("link", from, to, 0, r, errno);
}

int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
    REAL(linkat);
    int r = real_linkat(fromfd, from, tofd, to, flags);
    return log_path_call(resolvable(fromfd, from) && resolvable(tofd, to) ? "link" : "unresolved", from, to, flags, r,
                         errno);
}

int unlink(const char *path) {
    REAL(unlink);
    int r = real_unlink(path);
    return log_path_call("unlink", path, NULL, 0, r, errno);
}

int unlinkat(int dirfd, const char *path, int flags) {
    REAL(unlinkat);
    int r = real_unlinkat(dirfd, path, flags);
    const char *call = !resolvable(dirfd, path) ? "unresolved" : (flags & AT_REMOVEDIR) ? "rmdir" : "unlink";
    return log_path_call(call, path, NULL, flags, r, errno);
}

int mkdir(const char *path, mode_t mode) {
    REAL(mkdir);
    int r = real_mkdir(path, mode);
    return log_path_call("mkdir", path, NULL, (long long)mode, r, errno);
}

int rmdir(const char *path) {
    REAL(rmdir);
    int r = real_rmdir(path);
    return log_path_call("rmdir", path, NULL, 0, r, errno);
}

int chmod(const char *path, mode_t mode) {
    REAL(chmod);
    int r = real_chmod(path, mode);
    return log_path_call("chmod", path, NULL, (long long)mode, r, errno);
}

int fchmod(int fd, mode_t mode) {
    REAL(fchmod);
    int r = real_fchmod(fd, mode);
    return log_fd_call("fchmod", fd, (long long)mode, r, errno);
}
