/* A loader that reaches the driver as the CUDA runtime does (doc/driver-facts.md):
 * dlopen("libcuda.so.1"), one dlsym of cuGetProcAddress_v2, the self-look-ups at 11030 and 12000, then every
 * request of the runtime's table through the 12000 pointer, then a few calls through what it got.
 *
 * Usage: interpose-loader REQUESTS PTX [TRACER]
 * Prints one line per request (result, status, whether the pointer is the export of the variant named in the
 * table's last column) and the results of the calls: the same text traced and untraced.  The pointer must
 * equal dlsym(libcuda, exported name) and, given TRACER (the preloaded libcudatrace.so), also that library's
 * export of the name: the trampoline of exactly that variant.  Exit 1 on any mismatch or failed call. */
#include "config.h"

#define __CUDA_API_VERSION_INTERNAL 1 /* every variant under its own name */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

#define EXPECT(cond, ...)                                                                                    \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            fprintf(stderr, "interpose-loader: " __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                                           \
            failed = 1;                                                                                    \
        }                                                                                                  \
    } while (0)

static void *driver, *tracer;
static PFN_cuGetProcAddress_v12000 get_proc;

/* The function the table's row names, looked up the way the row says. */
static void *lookup(const char *symbol, int version, cuuint64_t flags, const char *expected)
{
    void *pfn = (void *)1;
    CUdriverProcAddressQueryResult status = (CUdriverProcAddressQueryResult)-1;
    CUresult r = get_proc(symbol, &pfn, version, flags, &status);
    const char *match = "-";
    if (r == CUDA_SUCCESS && pfn) { /* the simulated driver answers unknown names with success and NULL */
        void *want = dlsym(driver, expected);
        int ok = pfn == want && (!tracer || pfn == dlsym(tracer, expected));
        EXPECT(ok, "%s %d 0x%llx: %p is not the export of %s (%p)", symbol, version, (unsigned long long)flags, pfn,
               expected, want);
        match = ok ? "yes" : "NO";
    } else {
        EXPECT(pfn == NULL, "%s %d: no function (%d) but *pfn was not cleared", symbol, version, (int)r);
    }
    printf("%s %d 0x%llx r=%d status=%d exact=%s\n", symbol, version, (unsigned long long)flags, (int)r, (int)status,
           match);
    return r == CUDA_SUCCESS ? pfn : NULL; /* NULL when not found */
}

static void replay(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512], symbol[128], expected[128];
    int version, rows = 0;
    unsigned long long flags;
    EXPECT(f != NULL, "cannot open %s", path);
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '"' || line[0] == '\n')
            continue;
        if (sscanf(line, "%127s %d %llx %127s", symbol, &version, &flags, expected) != 4) {
            EXPECT(0, "bad row: %s", line);
            continue;
        }
        lookup(symbol, version, flags, expected);
        rows++;
    }
    if (f)
        fclose(f);
    EXPECT(rows == 439, "replayed %d requests, not 439", rows);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char text[1 << 16];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return n ? text : NULL;
}

#define CALL(expr)                                                                                           \
    do {                                                                                                   \
        CUresult r_ = (expr);                                                                              \
        printf("%s = %d\n", #expr, (int)r_);                                                               \
        EXPECT(r_ == CUDA_SUCCESS, "%s failed: %d", #expr, (int)r_);                                       \
    } while (0)

/* What the runtime does with the pointers it collected: a vector addition on the per-thread default
 * stream, the copies through _ptds variants and the launch through cuLaunchKernel_ptsz. */
static void compute(const char *ptx_path)
{
    PFN_cuInit_v2000 init = lookup("cuInit", 2000, 0, "cuInit");
    PFN_cuDeviceGetCount_v2000 get_count = lookup("cuDeviceGetCount", 2000, 0, "cuDeviceGetCount");
    PFN_cuDeviceGet_v2000 get_device = lookup("cuDeviceGet", 2000, 0, "cuDeviceGet");
    PFN_cuDevicePrimaryCtxRetain_v7000 retain = lookup("cuDevicePrimaryCtxRetain", 7000, 0, "cuDevicePrimaryCtxRetain");
    PFN_cuCtxSetCurrent_v4000 set_current = lookup("cuCtxSetCurrent", 4000, 0, "cuCtxSetCurrent");
    PFN_cuModuleLoadData_v2000 load = lookup("cuModuleLoadData", 2000, 0, "cuModuleLoadData");
    PFN_cuModuleGetFunction_v2000 get_function = lookup("cuModuleGetFunction", 2000, 0, "cuModuleGetFunction");
    PFN_cuMemAlloc_v3020 alloc = lookup("cuMemAlloc", 3020, 0, "cuMemAlloc_v2");
    PFN_cuMemcpyHtoD_v7000_ptds to_device = lookup("cuMemcpyHtoD", 7000, 2, "cuMemcpyHtoD_v2_ptds");
    PFN_cuMemcpyDtoH_v7000_ptds to_host = lookup("cuMemcpyDtoH", 7000, 2, "cuMemcpyDtoH_v2_ptds");
    PFN_cuLaunchKernel_v7000_ptsz launch = lookup("cuLaunchKernel", 7000, 2, "cuLaunchKernel_ptsz");
    PFN_cuCtxSynchronize_v2000 sync = lookup("cuCtxSynchronize", 2000, 0, "cuCtxSynchronize");
    PFN_cuMemFree_v3020 release = lookup("cuMemFree", 3020, 0, "cuMemFree_v2");
    char *ptx = read_file(ptx_path);
    if (!init || !get_count || !get_device || !retain || !set_current || !load || !get_function || !alloc ||
        !to_device || !to_host || !launch || !sync || !release || !ptx) {
        EXPECT(0, "a function or the PTX is missing");
        return;
    }

    enum { N = 1024 };
    static float a[N], b[N], c[N];
    int count = 0, n = N;
    CUdevice dev;
    CUcontext ctx;
    CUmodule module;
    CUfunction add;
    CUdeviceptr da, db, dc;
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    CALL(init(0));
    CALL(get_count(&count));
    printf("devices=%d\n", count);
    CALL(get_device(&dev, 0));
    CALL(retain(&ctx, dev));
    CALL(set_current(ctx));
    CALL(load(&module, ptx));
    CALL(get_function(&add, module, "_Z9vectorAddPKfS0_Pfi"));
    CALL(alloc(&da, sizeof a));
    CALL(alloc(&db, sizeof b));
    CALL(alloc(&dc, sizeof c));
    CALL(to_device(da, a, sizeof a));
    CALL(to_device(db, b, sizeof b));
    void *params[] = {&da, &db, &dc, &n};
    CALL(launch(add, N / 256, 1, 1, 256, 1, 1, 0, CU_STREAM_PER_THREAD, params, NULL));
    CALL(sync());
    CALL(to_host(c, dc, sizeof c));
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += c[i];
    printf("sum=%.1f\n", sum);
    EXPECT(sum == 3.0 * (N - 1) * N / 2, "wrong sum %.1f", sum);
    CALL(release(da));
    CALL(release(db));
    CALL(release(dc));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: interpose-loader REQUESTS PTX [TRACER]\n");
        return 2;
    }
    /* Before the driver is loaded, nothing resolves its names globally: not our exports either. */
    printf("before dlopen: cuInit %s\n", dlsym(RTLD_DEFAULT, "cuInit") ? "found" : "absent");
    if (argc > 3) {
        tracer = dlopen(argv[3], RTLD_NOW | RTLD_NOLOAD);
        EXPECT(tracer != NULL, "the tracer %s is not loaded", argv[3]);
    }
    driver = dlopen("libcuda.so.1", RTLD_NOW);
    EXPECT(driver != NULL, "dlopen libcuda.so.1: %s", dlerror());
    if (!driver)
        return 1;
    /* A driver loaded RTLD_LOCAL is still not in the global scope. */
    printf("after dlopen: cuInit %s\n", dlsym(RTLD_DEFAULT, "cuInit") ? "found" : "absent");

    PFN_cuGetProcAddress_v12000 first = (PFN_cuGetProcAddress_v12000)dlsym(driver, "cuGetProcAddress_v2");
    EXPECT(first != NULL, "no cuGetProcAddress_v2");
    if (!first)
        return 1;
    /* The self-look-ups: every later request goes through the 12000 answer. */
    PFN_cuGetProcAddress_v11030 old = NULL;
    get_proc = first;
    old = lookup("cuGetProcAddress", 11030, 0, "cuGetProcAddress");
    get_proc = lookup("cuGetProcAddress", 12000, 0, "cuGetProcAddress_v2");
    if (!old || !get_proc)
        return 1;
    /* The 4-argument ABI answers too. */
    void *p = NULL;
    CUresult r = old("cuMemAlloc", &p, 3020, 0);
    EXPECT(r == CUDA_SUCCESS && p == dlsym(driver, "cuMemAlloc_v2"), "cuGetProcAddress (11030) of cuMemAlloc");
    printf("cuGetProcAddress(cuMemAlloc, 3020) r=%d exact=%s\n", (int)r, p == dlsym(driver, "cuMemAlloc_v2") ? "yes" : "NO");

    replay(argv[1]);
    compute(argv[2]);
    printf("%s\n", failed ? "FAILED" : "PASSED");
    return failed;
}
