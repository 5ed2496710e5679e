#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudatrace/format.h"
#include "format/input.h"

const char *ct_input_name(const char *path) { return strcmp(path, "-") ? path : "standard input"; }

/* An unlinked file in dir: O_TMPFILE where the file system has it, else mkstemp then unlink. */
static int temp_file(const char *dir)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return fd;
#endif
    char tmpl[4096];
    if ((size_t)snprintf(tmpl, sizeof tmpl, "%s/cudatrace-report-XXXXXX", dir) >= sizeof tmpl) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int t = mkostemp(tmpl, O_CLOEXEC);
    if (t >= 0)
        unlink(tmpl);
    return t;
}

/* Do the bytes read so far, `*seen` before these `n`, differ from the start of CT_MAGIC? */
static int magic_differs(const char *bytes, size_t n, size_t *seen)
{
    size_t k = *seen < CT_MAGIC_LEN ? CT_MAGIC_LEN - *seen : 0;
    if (k > n)
        k = n;
    if (memcmp(bytes, &CT_MAGIC[*seen], k) != 0)
        return 1;
    *seen += k;
    return 0;
}

/* Copy everything `in` gives until its end into a temporary file; its descriptor, or -1 with err set.  Input
 * whose first bytes are not a trace's magic is copied only that far: the reader refuses the copy as it
 * would the input, and endless input (/dev/zero, `yes |`) does not fill $TMPDIR first. */
static int spool(int in, const char *name, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int out = temp_file(dir);
    if (out < 0) {
        snprintf(err, errlen, "%s: cannot create a temporary copy in %s: %s", name, dir, strerror(errno));
        return -1;
    }
    enum { CHUNK = 1 << 16 };
    size_t magic_seen = 0;
    char *buf = malloc(CHUNK);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", name);
        close(out);
        return -1;
    }
    for (;;) {
        ssize_t got = read(in, buf, CHUNK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
            break;
        }
        if (got == 0) {
            free(buf);
            return out;
        }
        const int not_trace = magic_differs(buf, (size_t)got, &magic_seen);
        for (ssize_t done = 0; done < got;) {
            ssize_t put = write(out, buf + done, (size_t)(got - done));
            if (put < 0 && errno == EINTR)
                continue;
            if (put < 0) { /* ENOSPC above all: the copy would be short */
                snprintf(err, errlen, "%s: cannot copy it to a temporary file in %s: %s", name, dir,
                         strerror(errno));
                free(buf);
                close(out);
                return -1;
            }
            done += put;
        }
        if (not_trace) { /* the bytes that show it are in the copy: the reader refuses it */
            free(buf);
            return out;
        }
    }
    free(buf);
    close(out);
    return -1;
}

int ct_input_open(const char *path, char *err, size_t errlen)
{
    const char *name = ct_input_name(path);
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : fcntl(0, F_DUPFD_CLOEXEC, 3);
    struct stat st;

    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) { /* say so plainly rather than "read error" */
        snprintf(err, errlen, "%s: is a directory, not a trace file", name);
        close(fd);
        return -1;
    }
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
        return fd;
    int copy = spool(fd, name, err, errlen);
    close(fd);
    return copy;
}
