/* Preloaded before libcudatrace.so by interpose-signals.sh: counts the heap calls that libcudatrace.so makes
 * on a program thread (not one of its own cudatrace-* threads) while SIGUSR1 can be delivered.  A signal
 * handler that forks would deadlock in glibc's fork if such a call was holding the allocator's lock
 * (src/recorder/alloc.h); the test expects none.  At exit it writes the count, and the first offender's
 * symbol, to the file MALLOC_MASKED_OUT names. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic long unmasked;
static char first[128];
static __thread int inside;

static void check(const void *caller)
{
    Dl_info info;
    sigset_t cur;
    char name[17] = "";
    if (inside)
        return;
    inside = 1;
    if (dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "libcudatrace") &&
        pthread_sigmask(SIG_BLOCK, NULL, &cur) == 0 && !sigismember(&cur, SIGUSR1) &&
        prctl(PR_GET_NAME, name) == 0 && strncmp(name, "cudatrace", 9) != 0 && atomic_fetch_add(&unmasked, 1) == 0)
        snprintf(first, sizeof first, "%s", info.dli_sname ? info.dli_sname : "?");
    inside = 0;
}

void *malloc(size_t n)
{
    check(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    check(__builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    check(__builtin_return_address(0));
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    check(__builtin_return_address(0));
    return __libc_memalign(align, n);
}

void free(void *p)
{
    check(__builtin_return_address(0));
    __libc_free(p);
}

__attribute__((destructor)) static void report(void)
{
    const char *out = getenv("MALLOC_MASKED_OUT");
    FILE *f = out ? fopen(out, "w") : NULL;
    if (f) {
        fprintf(f, "%ld %s\n", atomic_load(&unmasked), first[0] ? first : "-");
        fclose(f);
    }
}
