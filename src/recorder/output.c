#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recorder/output.h"

/* Alternatives tried after the name itself before giving up. */
#define MAX_ALTERNATIVES 1000u

static int append(char *out, size_t len, size_t *used, const char *s, size_t n)
{
    if (*used + n >= len)
        return -1;
    memcpy(out + *used, s, n);
    *used += n;
    out[*used] = '\0';
    return 0;
}

int ct_output_expand(const char *tmpl, char *out, size_t len, long pid, const char *host)
{
    size_t used = 0;
    char num[24];

    if (len == 0)
        return -1;
    out[0] = '\0';
    for (const char *p = tmpl; *p; p++) {
        int rc;
        if (*p != '%') {
            rc = append(out, len, &used, p, 1);
        } else if (p[1] == '%') {
            rc = append(out, len, &used, "%", 1);
            p++;
        } else if (p[1] == 'p') {
            snprintf(num, sizeof num, "%ld", pid);
            rc = append(out, len, &used, num, strlen(num));
            p++;
        } else if (p[1] == 'h') {
            rc = append(out, len, &used, host, strlen(host));
            p++;
        } else if (p[1] == 'q' && p[2] == '{') {
            const char *close = strchr(p + 3, '}');
            char var[256];
            const char *val;
            if (!close || close == p + 3 || (size_t)(close - (p + 3)) >= sizeof var)
                return -1;
            memcpy(var, p + 3, (size_t)(close - (p + 3)));
            var[close - (p + 3)] = '\0';
            val = getenv(var);
            rc = val ? append(out, len, &used, val, strlen(val)) : 0;
            p = close;
        } else {
            return -1;
        }
        if (rc < 0)
            return -1;
    }
    return used > 0 ? 0 : -1;
}

int ct_output_alt_name(const char *name, unsigned n, char *out, size_t len)
{
    const char *base = strrchr(name, '/');
    const char *dot;
    size_t stem;
    int k;

    base = base ? base + 1 : name;
    dot = strrchr(base, '.');
    stem = dot && dot != base ? (size_t)(dot - name) : strlen(name);
    k = snprintf(out, len, "%.*s.%u%s", (int)stem, name, n, name + stem);
    return k > 0 && (size_t)k < len ? 0 : -1;
}

int ct_output_create(const char *name, unsigned mode, char *path, size_t len)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;

    if (strlen(name) >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(path, name);
    for (unsigned n = 1;; n++) {
        int fd = open(path, flags, (mode_t)mode);
        if (fd >= 0 || errno != EEXIST || n > MAX_ALTERNATIVES)
            return fd;
        if (ct_output_alt_name(name, n, path, len) < 0) {
            errno = ENAMETOOLONG;
            return -1;
        }
    }
}

const char *ct_output_not_a_file(const char *name)
{
    struct stat st;

    /* A link is never followed to write, but one to a device or a directory (/dev/stdout) names no file
     * either; a dangling one, or one to a file, is a taken name like any other. */
    if (lstat(name, &st) != 0 || S_ISREG(st.st_mode))
        return NULL;
    if (S_ISLNK(st.st_mode) && (stat(name, &st) != 0 || S_ISREG(st.st_mode)))
        return NULL;
    return S_ISDIR(st.st_mode)    ? "a directory"
           : S_ISCHR(st.st_mode)  ? "a character device"
           : S_ISBLK(st.st_mode)  ? "a block device"
           : S_ISFIFO(st.st_mode) ? "a FIFO"
                                  : "a socket";
}
