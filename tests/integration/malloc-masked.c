/* Preloaded before libcudatrace.so by interpose-signals.sh: counts the calls that libcudatrace.so makes into
 * glibc's allocator on a program thread (not one of its own cudatrace-* threads).  A traced call in a
 * signal handler that interrupted the program inside malloc would wait forever on the allocator's lock,
 * and a handler that forks would deadlock in glibc's fork if such a call held it (src/recorder/alloc.h):
 * the test expects none.  At exit it writes the count, and the first offender's symbol, to the file
 * MALLOC_MASKED_OUT names. */
#define _GNU_SOURCE
#include <dlfcn.h>
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

static _Atomic long calls;
static char first[128];
static __thread int inside;

static void check(const void *caller)
{
    Dl_info info;
    char name[17] = "";
    if (inside)
        return;
    inside = 1;
    if (dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "libcudatrace") &&
        prctl(PR_GET_NAME, name) == 0 && strncmp(name, "cudatrace", 9) != 0 && atomic_fetch_add(&calls, 1) == 0)
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
        fprintf(f, "%ld %s\n", atomic_load(&calls), first[0] ? first : "-");
        fclose(f);
    }
}
