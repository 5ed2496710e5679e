/* The program's descriptor calls that could take the trace's number: close, dup2, dup3, close_range and
 * closefrom.  When the target is the trace's descriptor, or the trace is detached (one atomic load and two
 * compares, on every close of the program), ct_tf_range_begin first moves the trace to another number,
 * waiting for a write in progress, and then the program's call goes ahead on the old number: no write of
 * ours ever reaches a file of the program's.  And pipe/pipe2: the pipe libunwind opens when the tracer starts it goes high (fdhigh.h).
 *
 * These run anywhere: before the tracer starts (ct_tf_fdnum is -1), in signal handlers (the lock's holder
 * blocks signals, so it is never the interrupted thread), in a vfork child (ct_tf_range_begin checks the pid),
 * and on the writer thread (which holds the lock only around its own system calls).  The next functions are
 * looked up by our constructor, not here: dlsym is not async-signal-safe.  Until then (another library's
 * constructor) the system call itself is made. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder/export.h"
#include "recorder/fdhigh.h"
#include "recorder/tracefile.h"

/* Named by programs that link the recorder statically (tests/integration/recorder.mk), so that this file
 * comes with it even where a sanitizer's runtime, linked first, already defines close and the rest. */
const char ct_fd_hooks_linked = 1;

static int (*next_close)(int);
static int (*next_dup2)(int, int);
static int (*next_dup3)(int, int, int);
static int (*next_close_range)(unsigned, unsigned, int);
static void (*next_closefrom)(int);
static int (*next_pipe)(int[2]);
static int (*next_pipe2)(int[2], int);

__attribute__((constructor)) static void fd_hooks_init(void)
{
    next_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    next_dup2 = (int (*)(int, int))dlsym(RTLD_NEXT, "dup2");
    next_dup3 = (int (*)(int, int, int))dlsym(RTLD_NEXT, "dup3");
    next_close_range = (int (*)(unsigned, unsigned, int))dlsym(RTLD_NEXT, "close_range");
    next_closefrom = (void (*)(int))dlsym(RTLD_NEXT, "closefrom");
    next_pipe = (int (*)(int[2]))dlsym(RTLD_NEXT, "pipe");
    next_pipe2 = (int (*)(int[2], int))dlsym(RTLD_NEXT, "pipe2");
}

/* Is fd the trace's, or is the trace detached (any number may be the one its reopen takes)? */
static inline int is_trace(int fd)
{
    const int t = atomic_load_explicit(&ct_tf_fdnum, memory_order_relaxed);
    return __builtin_expect((fd == t && fd >= 0) || t == CT_TF_DETACHED, 0);
}

/* The program's call `rc = call`, between ct_tf_range_begin(lo, hi) and its end, errno kept. */
#define AROUND(lo, hi, call)                                                                             \
    do {                                                                                                 \
        const int locked_ = ct_tf_range_begin((lo), (hi));                                               \
        rc = (call);                                                                                     \
        if (locked_) {                                                                                   \
            const int e_ = errno;                                                                        \
            ct_tf_range_end();                                                                           \
            errno = e_;                                                                                  \
        }                                                                                                \
    } while (0)

static inline int close_next(int fd) { return next_close ? next_close(fd) : (int)syscall(SYS_close, fd); }

/* Out of line, so that the common case needs no stack frame: a load, two compares, the tail call. */
__attribute__((noinline, cold)) static int close_trace_number(int fd)
{
    int rc;
    AROUND((unsigned)fd, (unsigned)fd, close_next(fd));
    return rc;
}

CT_EXPORT int close(int fd)
{
    if (is_trace(fd) && fd >= 0)
        return close_trace_number(fd);
    return close_next(fd);
}

static int dup2_next(int oldfd, int newfd)
{
    if (next_dup2)
        return next_dup2(oldfd, newfd);
    if (oldfd == newfd)
        return fcntl(oldfd, F_GETFD) < 0 ? -1 : newfd;
    return (int)syscall(SYS_dup3, oldfd, newfd, 0);
}

static int dup3_next(int oldfd, int newfd, int flags)
{
    return next_dup3 ? next_dup3(oldfd, newfd, flags) : (int)syscall(SYS_dup3, oldfd, newfd, flags);
}

CT_EXPORT int dup2(int oldfd, int newfd)
{
    int rc;
    if (!is_trace(newfd) || oldfd == newfd || newfd < 0)
        return dup2_next(oldfd, newfd);
    AROUND((unsigned)newfd, (unsigned)newfd, dup2_next(oldfd, newfd));
    return rc;
}

CT_EXPORT int dup3(int oldfd, int newfd, int flags)
{
    int rc;
    if (!is_trace(newfd) || oldfd == newfd || newfd < 0)
        return dup3_next(oldfd, newfd, flags);
    AROUND((unsigned)newfd, (unsigned)newfd, dup3_next(oldfd, newfd, flags));
    return rc;
}

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static int range_call(unsigned lo, unsigned hi, int flags)
{
#ifdef SYS_close_range
    return next_close_range ? next_close_range(lo, hi, flags) : (int)syscall(SYS_close_range, lo, hi, flags);
#else
    if (next_close_range)
        return next_close_range(lo, hi, flags);
    errno = ENOSYS;
    return -1;
#endif
}

CT_EXPORT int close_range(unsigned lo, unsigned hi, int flags)
{
    int rc;
    if (flags & CLOSE_RANGE_CLOEXEC) /* closes nothing (and ours is close-on-exec already) */
        return range_call(lo, hi, flags);
    AROUND(lo, hi, range_call(lo, hi, flags));
    return rc;
}

CT_EXPORT void closefrom(int lo)
{
    const int locked = lo >= 0 && ct_tf_range_begin((unsigned)lo, ~0U);
    if (next_closefrom)
        next_closefrom(lo);
    else if (range_call((unsigned)lo, ~0U, 0) != 0)
        for (int fd = lo; fd < 65536; fd++) /* closefrom cannot fail: glibc's fallback, roughly */
            (void)syscall(SYS_close, fd);
    if (locked)
        ct_tf_range_end();
}

/* Only while the tracer starts libunwind (ct_fd_own_pipes) are the pipe's descriptors the tracer's. */
static int own_pipe(int rc, int fds[2])
{
    if (rc == 0 && ct_fd_own_pipes) {
        fds[0] = ct_fd_move_high(fds[0]);
        fds[1] = ct_fd_move_high(fds[1]);
    }
    return rc;
}

CT_EXPORT int pipe2(int fds[2], int flags)
{
    return own_pipe(next_pipe2 ? next_pipe2(fds, flags) : (int)syscall(SYS_pipe2, fds, flags), fds);
}

CT_EXPORT int pipe(int fds[2])
{
    return own_pipe(next_pipe ? next_pipe(fds) : (int)syscall(SYS_pipe2, fds, 0), fds);
}
