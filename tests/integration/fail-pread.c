/* LD_PRELOADed by report-input.sh: every pread after the first CT_FAIL_PREAD_AFTER fails with EIO, so that
 * a read error can strike each of the report's reads in turn (the first pass's, the merge's). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off);

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    static long left = -2; /* -2: not read from the environment yet; -1: never fail */
    if (left == -2) {
        const char *s = getenv("CT_FAIL_PREAD_AFTER");
        left = s ? atol(s) : -1;
    }
    if (left == 0) {
        errno = EIO;
        return -1;
    }
    if (left > 0)
        left--;
    return syscall(SYS_pread64, fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off) { return pread(fd, buf, n, off); }
