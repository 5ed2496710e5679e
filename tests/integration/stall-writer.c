/* LD_PRELOADed by recorder-sigterm.sh: the tracer's writer thread ("cudatrace-wr") writes part of a record
 * with its first writev, then never returns from it, as on a stuck disk.  Other threads write normally. */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    char name[16] = "";
    prctl(PR_GET_NAME, name, 0, 0, 0);
    if (n > 0 && iov[0].iov_len > 1 && name[0] == 'c' && name[1] == 'u' && name[10] == 'w' && name[11] == 'r') {
        size_t part = iov[0].iov_len - 1 < 100 ? iov[0].iov_len - 1 : 100;
        (void)!syscall(SYS_write, fd, iov[0].iov_base, part);
        for (;;) {
            struct timespec t = {60, 0};
            nanosleep(&t, NULL);
        }
    }
    return syscall(SYS_writev, fd, iov, n);
}
