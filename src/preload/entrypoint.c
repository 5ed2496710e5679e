/* cudaGetDriverEntryPoint[ByVersion][_ptsz]: the runtime's way to hand out driver functions (PyTorch's
 * c10/cuda/driver_api.cpp uses it).  We forward to the runtime the program loaded, found without linking
 * it, and swap the pointer it returns like any other.  (A runtime whose own cuGetProcAddress came through
 * us already returns our trampolines; those pass unchanged.)  Programs with a static runtime call their
 * internal copy, never these. */
#include "config.h"

#include "preload/interpose.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <string.h>

typedef cudaError_t (*entry_fn)(const char *, void **, unsigned long long, enum cudaDriverEntryPointQueryResult *);
typedef cudaError_t (*entry_ver_fn)(const char *, void **, unsigned int, unsigned long long,
                                    enum cudaDriverEntryPointQueryResult *);

enum { EP, EP_PTSZ, EP_VER, EP_VER_PTSZ, EP_COUNT };
static const char *const names[EP_COUNT] = {"cudaGetDriverEntryPoint", "cudaGetDriverEntryPoint_ptsz",
                                            "cudaGetDriverEntryPointByVersion",
                                            "cudaGetDriverEntryPointByVersion_ptsz"};
static void *runtime[EP_COUNT]; /* the runtime's functions, once found */

/* dl_iterate_phdr callback: the path of the first loaded libcudart.so* (copied: dlopen must wait until
 * the iteration has let go of the loader's lock). */
static int find_runtime_path(struct dl_phdr_info *info, size_t size, void *path)
{
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strncmp(base, "libcudart.so", 12) != 0 || strlen(info->dlpi_name) >= PATH_MAX)
        return 0;
    strcpy(path, info->dlpi_name);
    return 1;
}

/* The runtime's function `which`: the global definition behind ours, else the one in a loaded
 * libcudart.so* (a runtime loaded RTLD_LOCAL, as Python extension modules load theirs). */
static void *runtime_fn(int which)
{
    void *p = __atomic_load_n(&runtime[which], __ATOMIC_ACQUIRE);
    if (p)
        return p;
    ct_guard++;
    p = ct_real_dlsym(RTLD_NEXT, names[which]);
    char path[PATH_MAX];
    if (!p && dl_iterate_phdr(find_runtime_path, path)) {
        void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        if (h) {
            p = ct_real_dlsym(h, names[which]);
            dlclose(h); /* drops only the reference RTLD_NOLOAD took */
        }
    }
    ct_guard--;
    if (p)
        __atomic_store_n(&runtime[which], p, __ATOMIC_RELEASE);
    return p;
}

/* No shared runtime is loaded: answer as the runtime does for a symbol it cannot provide, with
 * cudaErrorInitializationError ("the CUDA driver and runtime could not be initialized"). */
static cudaError_t no_runtime(void **funcPtr, enum cudaDriverEntryPointQueryResult *status)
{
    if (funcPtr)
        *funcPtr = NULL;
    if (status)
        *status = cudaDriverEntryPointSymbolNotFound;
    return cudaErrorInitializationError;
}

static cudaError_t forward(int which, const char *symbol, void **funcPtr, unsigned version,
                           unsigned long long flags, enum cudaDriverEntryPointQueryResult *status)
{
    void *fn = runtime_fn(which);
    if (!fn)
        return no_runtime(funcPtr, status);
    cudaError_t e = which == EP || which == EP_PTSZ
                        ? ((entry_fn)fn)(symbol, funcPtr, flags, status)
                        : ((entry_ver_fn)fn)(symbol, funcPtr, version, flags, status);
    /* Not from a signal handler that interrupted the tracer (ct_guard): ct_wrap may take its locks. */
    if (e == cudaSuccess && funcPtr && symbol && !ct_guard) {
        ct_driver(0);
        *funcPtr = ct_wrap(*funcPtr, symbol, version, (flags & cudaEnablePerThreadDefaultStream) != 0);
    }
    return e;
}

/* Defined under C names of our own with the exported names as assembler labels: the runtime header
 * declares the non-ByVersion ones deprecated, and our table below must take their addresses. */
#define ENTRY_POINT(fname, which)                                                                          \
    CT_EXPORT cudaError_t ct_##fname(const char *symbol, void **funcPtr, unsigned long long flags,         \
                                     enum cudaDriverEntryPointQueryResult *driverStatus) __asm__(#fname);  \
    cudaError_t ct_##fname(const char *symbol, void **funcPtr, unsigned long long flags,                   \
                           enum cudaDriverEntryPointQueryResult *driverStatus)                             \
    {                                                                                                      \
        return forward(which, symbol, funcPtr, UINT_MAX, flags, driverStatus);                             \
    }
#define ENTRY_POINT_BY_VERSION(fname, which)                                                               \
    CT_EXPORT cudaError_t ct_##fname(const char *symbol, void **funcPtr, unsigned int cudaVersion,         \
                                     unsigned long long flags,                                             \
                                     enum cudaDriverEntryPointQueryResult *driverStatus) __asm__(#fname);  \
    cudaError_t ct_##fname(const char *symbol, void **funcPtr, unsigned int cudaVersion,                   \
                           unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus)   \
    {                                                                                                      \
        return forward(which, symbol, funcPtr, cudaVersion, flags, driverStatus);                          \
    }

ENTRY_POINT(cudaGetDriverEntryPoint, EP)
ENTRY_POINT(cudaGetDriverEntryPoint_ptsz, EP_PTSZ)
ENTRY_POINT_BY_VERSION(cudaGetDriverEntryPointByVersion, EP_VER)
ENTRY_POINT_BY_VERSION(cudaGetDriverEntryPointByVersion_ptsz, EP_VER_PTSZ)
_Static_assert(__builtin_types_compatible_p(__typeof__(ct_cudaGetDriverEntryPointByVersion),
                                            __typeof__(cudaGetDriverEntryPointByVersion)),
               "cudaGetDriverEntryPointByVersion: not the runtime's signature");

void *ct_entry_point_export(const char *symbol)
{
    static void *const exports[EP_COUNT] = {
        (void *)ct_cudaGetDriverEntryPoint, (void *)ct_cudaGetDriverEntryPoint_ptsz,
        (void *)ct_cudaGetDriverEntryPointByVersion, (void *)ct_cudaGetDriverEntryPointByVersion_ptsz};
    if (strncmp(symbol, "cudaGetDriverEntryPoint", 23) != 0)
        return NULL;
    for (int i = 0; i < EP_COUNT; i++)
        if (strcmp(symbol, names[i]) == 0)
            return exports[i];
    return NULL;
}
