/* A dlsym client, linked with -lcuda (so the driver is in the global scope): driver functions asked of the
 * driver's handle, of RTLD_DEFAULT and of RTLD_NEXT all give the function the program's own references
 * resolve to (our trampoline when traced); other names go through untouched, RTLD_NEXT keeping the meaning
 * "after the caller".  Built twice: bound to dlsym@GLIBC_2.34, and (-DCT_OLD_DLSYM) to dlsym@GLIBC_2.2.5.
 * Prints the same text traced and untraced; exit 1 on any mismatch or failed call. */
#include "config.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef CT_OLD_DLSYM
void *dlsym_old(void *handle, const char *name);
__asm__(".symver dlsym_old,dlsym@GLIBC_2.2.5");
#define DLSYM dlsym_old
#else
#define DLSYM dlsym
#endif

static int failed;

static void same(const char *what, void *got, void *want)
{
    int ok = got != NULL && got == want;
    printf("%s: %s\n", what, ok ? "same" : "DIFFERENT");
    if (!ok) {
        fprintf(stderr, "interpose-dlsym: %s: %p, expected %p\n", what, got, want);
        failed = 1;
    }
}

/* Functions' addresses as data pointers, as dlsym returns them. */
#define ADDR(f) ((void *)(f))

int main(void)
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver) {
        fprintf(stderr, "interpose-dlsym: libcuda.so.1 not loaded\n");
        return 1;
    }
    same("handle cuLaunchKernel", DLSYM(driver, "cuLaunchKernel"), ADDR(cuLaunchKernel));
    same("RTLD_DEFAULT cuLaunchKernel", DLSYM(RTLD_DEFAULT, "cuLaunchKernel"), ADDR(cuLaunchKernel));
    same("RTLD_NEXT cuLaunchKernel", DLSYM(RTLD_NEXT, "cuLaunchKernel"), ADDR(cuLaunchKernel));
    same("handle cuMemAlloc_v2", DLSYM(driver, "cuMemAlloc_v2"), ADDR(cuMemAlloc)); /* cuda.h: cuMemAlloc_v2 */
    same("RTLD_DEFAULT cuGetProcAddress_v2", DLSYM(RTLD_DEFAULT, "cuGetProcAddress_v2"), ADDR(cuGetProcAddress));
    same("handle cuInit", DLSYM(driver, "cuInit"), ADDR(cuInit));

    /* Names that are not the driver's: untouched. */
    same("RTLD_DEFAULT printf", DLSYM(RTLD_DEFAULT, "printf"), ADDR(printf));
    same("RTLD_NEXT printf", DLSYM(RTLD_NEXT, "printf"), ADDR(printf));
    same("handle puts", DLSYM(driver, "puts"), ADDR(puts));
    /* RTLD_NEXT is relative to this program: the next dlsym after it is the one it calls (libcudatrace's when
     * traced, libc's otherwise), not the one after libcudatrace. */
    same("RTLD_NEXT dlsym", DLSYM(RTLD_NEXT, "dlsym"), ADDR(dlsym));
    void *none = DLSYM(driver, "cuNoSuchFunction");
    printf("handle cuNoSuchFunction: %s (%s)\n", none ? "found" : "absent", dlerror() ? "error set" : "no error");

    /* Calls through the pointers. */
    CUresult (*init)(unsigned) = (CUresult(*)(unsigned))DLSYM(driver, "cuInit");
    CUresult (*count)(int *) = (CUresult(*)(int *))DLSYM(RTLD_DEFAULT, "cuDeviceGetCount");
    int n = 0;
    CUresult r1 = init(0), r2 = count(&n);
    printf("cuInit=%d cuDeviceGetCount=%d devices=%d\n", (int)r1, (int)r2, n);
    if (r1 != CUDA_SUCCESS || r2 != CUDA_SUCCESS || n < 1)
        failed = 1;
    return failed;
}
