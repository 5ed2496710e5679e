#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "recorder/warn.h"

void ct_warn(const char *fmt, ...)
{
    char buf[1024] = "cudatrace: ";
    size_t n = sizeof "cudatrace: " - 1;
    int saved = errno, k;
    va_list ap;

    va_start(ap, fmt);
    k = vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
    va_end(ap);
    if (k > 0)
        n += (size_t)k < sizeof buf - n - 1 ? (size_t)k : sizeof buf - n - 2;
    buf[n++] = '\n';
    for (size_t off = 0; off < n;) {
        ssize_t w = write(STDERR_FILENO, buf + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    errno = saved;
}
