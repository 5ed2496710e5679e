/* cudaGetDriverEntryPoint[ByVersion] through a runtime (the stand-in libcudart.so.13 of interpose-cudart.c):
 * each pointer is the export of the variant asked for (dlsym of the driver's handle: our trampoline when
 * traced), and calls through them work.  Prints the same text traced and untraced; exit 1 on a mismatch. */
#include "config.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* cudaGetDriverEntryPoint */

static int failed;
static void *driver;

static void *check(const char *what, cudaError_t e, void *p, enum cudaDriverEntryPointQueryResult st,
                   const char *expected)
{
    void *want = dlsym(driver, expected);
    int ok = e == cudaSuccess && st == cudaDriverEntryPointSuccess && p && p == want;
    printf("%s: e=%d status=%d %s\n", what, (int)e, (int)st, ok ? "exact" : "WRONG");
    if (!ok)
        failed = 1;
    return ok ? p : NULL;
}

int main(void)
{
    driver = dlopen("libcuda.so.1", RTLD_NOW);
    if (!driver)
        return 1;
    enum cudaDriverEntryPointQueryResult st = cudaDriverEntryPointSymbolNotFound;
    void *p = NULL;
    cudaError_t e = cudaGetDriverEntryPoint("cuInit", &p, cudaEnableDefault, &st);
    CUresult (*init)(unsigned) = (CUresult(*)(unsigned))check("cuInit", e, p, st, "cuInit");
    e = cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 3020, cudaEnableDefault, &st);
    CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))check("cuMemAlloc", e, p, st, "cuMemAlloc_v2");
    e = cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 7000, cudaEnablePerThreadDefaultStream, &st);
    check("cuLaunchKernel per-thread", e, p, st, "cuLaunchKernel_ptsz");
    e = cudaGetDriverEntryPointByVersion("cuMemcpyHtoD", &p, 7000, cudaEnablePerThreadDefaultStream, &st);
    check("cuMemcpyHtoD per-thread", e, p, st, "cuMemcpyHtoD_v2_ptds");
    e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &p, 12000, cudaEnableDefault, &st);
    printf("cuNoSuchFunction: e=%d status=%d p=%s\n", (int)e, (int)st, p ? "set" : "NULL");

    CUresult (*get_device)(CUdevice *, int) = NULL;
    CUresult (*retain)(CUcontext *, CUdevice) = NULL;
    CUresult (*set_current)(CUcontext) = NULL;
    e = cudaGetDriverEntryPointByVersion("cuDeviceGet", (void **)&get_device, 2000, 0, &st);
    e = e ? e : cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxRetain", (void **)&retain, 7000, 0, &st);
    e = e ? e : cudaGetDriverEntryPointByVersion("cuCtxSetCurrent", (void **)&set_current, 4000, 0, &st);
    if (!init || !alloc || e != cudaSuccess)
        return 1;
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr d = 0;
    CUresult r = init(0);
    r = r ? r : get_device(&dev, 0);
    r = r ? r : retain(&ctx, dev);
    r = r ? r : set_current(ctx);
    r = r ? r : alloc(&d, 1 << 20);
    printf("calls: r=%d allocated=%s\n", (int)r, d ? "yes" : "no");
    return failed || r != CUDA_SUCCESS;
}
