/* One of the two libraries of stacks-reload.sh, built twice from this file: libreloada.so with
 * RELOAD_FN=reload_alloc_a, libreloadb.so with RELOAD_FN=reload_alloc_b.  Names of one length and the same
 * code give two files of one layout, so the loader puts the second where the first was after its dlclose. */
#include "config.h"

#include <cuda.h>
#include <stddef.h>

static volatile int calls;

CUresult RELOAD_FN(CUdeviceptr *p, size_t n);

/* Allocates n bytes.  The count after the call keeps it from being a tail call, which would leave this
 * function's frame out of the stack. */
__attribute__((visibility("default"), noinline)) CUresult RELOAD_FN(CUdeviceptr *p, size_t n)
{
    CUresult r = cuMemAlloc(p, n);
    calls++;
    return r;
}
