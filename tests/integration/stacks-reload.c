/* stacks-reload.sh's program: dlopen LIB_A, allocate 1 MiB from its reload_alloc_a, dlclose it, dlopen LIB_B
 * (which the loader usually maps at LIB_A's range) and allocate 2 MiB from its reload_alloc_b.  Neither is
 * freed: the leaks report names the function of each.  Prints each library's load address ("base A 0x..",
 * "base B 0x..") for the script to compare.  Usage: stacks-reload LIB_A LIB_B. */
#include "config.h"

#include <cuda.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>

typedef CUresult alloc_fn(CUdeviceptr *p, size_t n);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "stacks-reload: %s failed (%s)\n", what, dlerror());
        exit(1);
    }
}

/* The library's load address (link_map's l_addr), and its allocating function. */
static void *open_lib(const char *path, const char *fn, alloc_fn **f, const char *which)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    struct link_map *lm = NULL;

    check(h != NULL, path);
    check(dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm, "dlinfo");
    *f = (alloc_fn *)dlsym(h, fn);
    check(*f != NULL, fn);
    printf("base %s 0x%lx\n", which, (unsigned long)lm->l_addr);
    return h;
}

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr a, b;
    alloc_fn *f;

    if (argc != 3) {
        fprintf(stderr, "usage: stacks-reload LIB_A LIB_B\n");
        return 2;
    }
    check(cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&dev, 0) == CUDA_SUCCESS &&
              cuCtxCreate(&ctx, NULL, 0, dev) == CUDA_SUCCESS,
          "context");
    void *h = open_lib(argv[1], "reload_alloc_a", &f, "A");
    check(f(&a, 1u << 20) == CUDA_SUCCESS, "reload_alloc_a");
    check(dlclose(h) == 0, "dlclose");
    h = open_lib(argv[2], "reload_alloc_b", &f, "B");
    check(f(&b, 2u << 20) == CUDA_SUCCESS, "reload_alloc_b"); /* another call site than A's: another stack */
    puts("stacks-reload: PASSED"); /* both buffers leak; B stays loaded */
    return 0;
}
