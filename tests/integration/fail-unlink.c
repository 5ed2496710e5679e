/* LD_PRELOADed by report-sqlite.sh: unlink of a name ending in CT_FAIL_UNLINK_SUFFIX fails with EPERM, as
 * for another user's file in a sticky directory (/tmp), which a test running as one user cannot make. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int unlink(const char *path);

int unlink(const char *path)
{
    const char *suffix = getenv("CT_FAIL_UNLINK_SUFFIX");
    size_t n = strlen(path), s = suffix ? strlen(suffix) : 0;
    if (s && n >= s && !strcmp(path + n - s, suffix)) {
        errno = EPERM;
        return -1;
    }
    return (int)syscall(SYS_unlink, path);
}
