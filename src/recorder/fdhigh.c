#include "config.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder/fdhigh.h"

__thread int ct_fd_own_pipes __attribute__((tls_model("initial-exec")));

int ct_fd_floor(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= (rlim_t)CT_FD_FLOOR + CT_FD_RESERVE)
        return CT_FD_FLOOR;
    return rl.rlim_cur > CT_FD_RESERVE ? (int)rl.rlim_cur - CT_FD_RESERVE : 0;
}

int ct_fd_close_raw(int fd) { return (int)syscall(SYS_close, fd); }

int ct_fd_move_high(int fd)
{
    const int floor = ct_fd_floor();
    int hi;

    if (fd < 0 || fd >= floor || (hi = fcntl(fd, F_DUPFD_CLOEXEC, floor)) < 0)
        return fd;
    ct_fd_close_raw(fd);
    return hi;
}
