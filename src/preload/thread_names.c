/* Thread renames: pthread_setname_np and prctl(PR_SET_NAME) are interposed, forwarded, and a thread that
 * renames itself after its first record gets a CT_REC_THREAD with the new name (recorder.h).  The name a
 * thread has at its first record is read by the recorder itself (rings.c), so a rename before it, or a
 * thread that never records, costs nothing here.  Renaming another thread is seen at that thread's first
 * record only: glibc gives no portable way from a pthread_t to its kernel thread id. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "recorder/export.h"
#include "recorder/recorder.h"

typedef int setname_fn(pthread_t, const char *);
typedef int prctl_fn(int, unsigned long, unsigned long, unsigned long, unsigned long);

static void renamed(const char *name)
{
    char buf[16]; /* the kernel keeps 15 bytes */

    if (!ct_rec_ring || !name)
        return;
    strncpy(buf, name, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    ct_rec_thread_name((uint32_t)gettid(), buf);
}

CT_EXPORT int pthread_setname_np(pthread_t t, const char *name)
{
    setname_fn *fn = (setname_fn *)dlsym(RTLD_NEXT, "pthread_setname_np");
    int rc = fn ? fn(t, name) : ENOSYS;

    if (rc == 0 && pthread_equal(t, pthread_self()))
        renamed(name);
    return rc;
}

CT_EXPORT int prctl(int option, ...)
{
    prctl_fn *fn = (prctl_fn *)dlsym(RTLD_NEXT, "prctl");
    unsigned long a[4];
    va_list ap;

    va_start(ap, option); /* glibc's own prctl takes its arguments so: the unused ones are never looked at */
    for (int i = 0; i < 4; i++)
        a[i] = va_arg(ap, unsigned long);
    va_end(ap);
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    int rc = fn(option, a[0], a[1], a[2], a[3]);
    if (rc == 0 && option == PR_SET_NAME)
        renamed((const char *)a[0]);
    return rc;
}
