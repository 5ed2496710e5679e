#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "recorder/warn.h"

static struct {
    int taken; /* 0: not yet (a message before our constructor ran), 1: open then, -1: closed then */
    dev_t dev;
    ino_t ino;
} err_file;

/* At load, before the program can move its descriptors: the stderr it was started with.  Another library's
 * constructor may call the driver before ours runs (a preloaded library is initialized after the program's
 * others): then the first message takes it. */
__attribute__((constructor)) void ct_warn_take_stderr(void)
{
    struct stat st;

    err_file.taken = fstat(STDERR_FILENO, &st) == 0 ? 1 : -1;
    if (err_file.taken == 1) {
        err_file.dev = st.st_dev;
        err_file.ino = st.st_ino;
    }
}

static int stderr_is_original(void)
{
    struct stat st;

    if (err_file.taken == 0)
        ct_warn_take_stderr();
    return err_file.taken == 1 && fstat(STDERR_FILENO, &st) == 0 && st.st_dev == err_file.dev &&
           st.st_ino == err_file.ino;
}

/* Our line must not kill the program: with stderr a pipe whose reader has gone (`prog 2>&1 | head -1`), a
 * write raises SIGPIPE, whose default action ends the process.  So SIGPIPE is blocked in this thread around
 * the write, the line dropped on EPIPE, and the SIGPIPE that write left pending taken back; one that was
 * pending already (the program's, or another write's, kept blocked) stays for the program.  Only
 * async-signal-safe calls: pthread_sigmask, sigpending and sigtimedwait are system calls in glibc. */
void ct_say(const char *msg, size_t len)
{
    static const struct timespec now = {0, 0};
    sigset_t pipe_set, old, pending;
    int saved = errno, epipe = 0, was_pending;

    if (!stderr_is_original()) {
        errno = saved;
        return;
    }
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(STDERR_FILENO, msg + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EPIPE)
            epipe = 1; /* nobody reads: the rest is dropped */
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    if (epipe && !was_pending)
        while (sigtimedwait(&pipe_set, NULL, &now) < 0 && errno == EINTR) {
        }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
}

size_t ct_escape(const char *in, size_t n, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;

    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)in[i];
        char e[4];
        size_t k = 0;
        if (c >= 0x20 && c != 0x7f) {
            e[k++] = (char)c;
        } else {
            e[k++] = '\\';
            switch (c) {
            case '\n': e[k++] = 'n'; break;
            case '\t': e[k++] = 't'; break;
            case '\r': e[k++] = 'r'; break;
            case 0x1b: e[k++] = 'e'; break;
            default:
                e[k++] = 'x';
                e[k++] = hex[c >> 4];
                e[k++] = hex[c & 15];
            }
        }
        if (o + k > cap)
            break;
        for (size_t j = 0; j < k; j++)
            out[o++] = e[j];
    }
    return o;
}

void ct_warn(const char *fmt, ...)
{
    char raw[1024], buf[1400] = "cudatrace: ";
    size_t n = sizeof "cudatrace: " - 1;
    int saved = errno, k;
    va_list ap;

    va_start(ap, fmt);
    k = vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    if (k > 0)
        n += ct_escape(raw, (size_t)k < sizeof raw ? (size_t)k : sizeof raw - 1, buf + n, sizeof buf - n - 1);
    buf[n++] = '\n';
    ct_say(buf, n);
    errno = saved;
}
