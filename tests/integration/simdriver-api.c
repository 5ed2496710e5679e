/* CUnit suite of the simulated driver's behaviour: cuGetProcAddress semantics (as measured on driver 580),
 * the legacy 32-bit variants, memory kinds and pointer attributes, contexts, copies, events, modules, the
 * linker and launches. Linked with the toolkit's libcuda stub, run with LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR. */
#include "config.h"

#include <CUnit/Basic.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cunit-run.h"

#define OK(call) CU_ASSERT_EQUAL_FATAL((call), CUDA_SUCCESS)

typedef CUresult (*get_proc_v1)(const char *, void **, int, cuuint64_t);
static void *library;
static CUcontext ctx;

static void *exported(const char *name)
{
    return dlsym(library, name);
}

/* cuGetProcAddress_v2: the symbol's exported name, or NULL; result and status through the pointers. */
static void *lookup(const char *symbol, int version, cuuint64_t flags, CUresult *r, CUdriverProcAddressQueryResult *st)
{
    void *pfn = (void *)1;
    *r = cuGetProcAddress(symbol, &pfn, version, flags, st);
    return pfn;
}

static void test_before_init(void)
{
    int n = 0, v = 0;
    CU_ASSERT_EQUAL(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    OK(cuDriverGetVersion(&v));
    CU_ASSERT_EQUAL(v, 13000);
    OK(cuInit(0));
    OK(cuDeviceGetCount(&n));
    CU_ASSERT_EQUAL(n, 2);
}

static void test_proc_address_variants(void)
{
    CUresult r;
    CUdriverProcAddressQueryResult st;
    CU_ASSERT_PTR_EQUAL(lookup("cuMemAlloc", 2000, 0, &r, &st), exported("cuMemAlloc"));
    CU_ASSERT_PTR_EQUAL(lookup("cuMemAlloc", 3020, 0, &r, &st), exported("cuMemAlloc_v2"));
    CU_ASSERT_PTR_EQUAL(lookup("cuCtxCreate", 11040, 0, &r, &st), exported("cuCtxCreate_v3"));
    CU_ASSERT_PTR_EQUAL(lookup("cuCtxCreate", 13000, 0, &r, &st), exported("cuCtxCreate_v4"));
    CU_ASSERT_PTR_EQUAL(lookup("cuCtxCreate", -1, 0, &r, &st), exported("cuCtxCreate_v4")); /* newest */
    CU_ASSERT_PTR_EQUAL(lookup("cuGetProcAddress", 11030, 0, &r, &st), exported("cuGetProcAddress"));
    CU_ASSERT_PTR_EQUAL(lookup("cuGetProcAddress", 12000, 0, &r, &st), exported("cuGetProcAddress_v2"));
    CU_ASSERT_EQUAL(r, CUDA_SUCCESS);
    CU_ASSERT_EQUAL(st, CU_GET_PROC_ADDRESS_SUCCESS);
    void *p = NULL;
    OK(cuGetProcAddress("cuMemAlloc", &p, 13000, 0, NULL)); /* symbolStatus may be NULL */
    CU_ASSERT_PTR_EQUAL(p, exported("cuMemAlloc_v2"));
}

static void test_proc_address_per_thread(void)
{
    CUresult r;
    CUdriverProcAddressQueryResult st;
    CU_ASSERT_PTR_EQUAL(lookup("cuLaunchKernel", 7000, 2, &r, &st), exported("cuLaunchKernel_ptsz"));
    CU_ASSERT_PTR_EQUAL(lookup("cuMemcpyHtoD", 7000, 2, &r, &st), exported("cuMemcpyHtoD_v2_ptds"));
    CU_ASSERT_PTR_EQUAL(lookup("cuMemcpyHtoD", 7000, 3, &r, &st), exported("cuMemcpyHtoD_v2_ptds"));
    CU_ASSERT_PTR_EQUAL(lookup("cuMemcpyHtoD", 7000, 1, &r, &st), exported("cuMemcpyHtoD_v2"));
    CU_ASSERT_PTR_EQUAL(lookup("cuMemcpyHtoD", 7000, 0, &r, &st), exported("cuMemcpyHtoD_v2"));
    /* no per-thread form at all: the default one */
    CU_ASSERT_PTR_EQUAL(lookup("cuEventElapsedTime", 13000, 2, &r, &st), exported("cuEventElapsedTime_v2"));
    /* per-thread forms exist but not yet at 3020: no fallback */
    CU_ASSERT_PTR_NULL(lookup("cuMemcpyHtoD", 3020, 2, &r, &st));
    CU_ASSERT_EQUAL(r, CUDA_SUCCESS);
    CU_ASSERT_EQUAL(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
}

static void test_proc_address_errors(void)
{
    CUresult r;
    CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)7;
    /* above the driver's version, or unknown flags: INVALID_VALUE, outputs untouched */
    CU_ASSERT_PTR_EQUAL(lookup("cuMemAlloc", 13010, 0, &r, &st), (void *)1);
    CU_ASSERT_EQUAL(r, CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_EQUAL(st, 7);
    lookup("cuMemAlloc", 3020, 4, &r, &st);
    CU_ASSERT_EQUAL(r, CUDA_ERROR_INVALID_VALUE);
    void *p = NULL;
    CU_ASSERT_EQUAL(cuGetProcAddress(NULL, &p, 13000, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_EQUAL(cuGetProcAddress("cuMemAlloc", NULL, 13000, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    /* 5-argument form: a miss is CUDA_SUCCESS, a NULL pointer and the reason */
    CU_ASSERT_PTR_NULL(lookup("cuMemAllocAsync", 11010, 0, &r, &st));
    CU_ASSERT_EQUAL(r, CUDA_SUCCESS);
    CU_ASSERT_EQUAL(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    CU_ASSERT_PTR_NULL(lookup("cuDeviceGetExecAffinitySupport", 11030, 0, &r, &st));
    CU_ASSERT_EQUAL(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    CU_ASSERT_PTR_NULL(lookup("cuMemAloc", 12000, 0, &r, &st));
    CU_ASSERT_EQUAL(r, CUDA_SUCCESS);
    CU_ASSERT_EQUAL(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    CU_ASSERT_PTR_NULL(lookup("", 0, 0, &r, &st));
    CU_ASSERT_EQUAL(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    /* 4-argument form (the 11.3 ABI): a miss is CUDA_ERROR_NOT_FOUND, the pointer untouched */
    get_proc_v1 v1 = (get_proc_v1)exported("cuGetProcAddress");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v1);
    p = (void *)1;
    CU_ASSERT_EQUAL(v1("cuMemAlloc", &p, 1000, 0), CUDA_ERROR_NOT_FOUND);
    CU_ASSERT_EQUAL(v1("cuMemAloc", &p, 12000, 0), CUDA_ERROR_NOT_FOUND);
    CU_ASSERT_PTR_EQUAL(p, (void *)1);
    CU_ASSERT_EQUAL(v1("cuMemAlloc", &p, 13010, 0), CUDA_ERROR_INVALID_VALUE);
    OK(v1("cuMemAlloc", &p, 3020, 0));
    CU_ASSERT_PTR_EQUAL(p, exported("cuMemAlloc_v2"));
}

static void test_errors_and_devices(void)
{
    const char *s = NULL;
    OK(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
    CU_ASSERT_STRING_EQUAL(s, "CUDA_ERROR_INVALID_VALUE");
    OK(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
    CU_ASSERT_STRING_EQUAL(s, "illegal address");
    CU_ASSERT_EQUAL(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    char name[64];
    CUuuid u0, u1;
    size_t mem;
    int major = 0, sms = 0;
    OK(cuDeviceGetName(name, sizeof name, 1));
    CU_ASSERT_STRING_EQUAL(name, "cudatrace simulated GPU 1");
    OK(cuDeviceGetUuid(&u0, 0));
    OK(cuDeviceGetUuid_v2(&u1, 1));
    CU_ASSERT(memcmp(u0.bytes, u1.bytes, sizeof u0.bytes) != 0);
    OK(cuDeviceTotalMem(&mem, 0));
    CU_ASSERT_EQUAL(mem, (size_t)80 << 30);
    OK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    CU_ASSERT_EQUAL(major, 9);
    CU_ASSERT_EQUAL(sms, 132);
    CUdevice d;
    CU_ASSERT_EQUAL(cuDeviceGet(&d, 2), CUDA_ERROR_INVALID_DEVICE);
}

static void *other_thread(void *arg)
{
    CUcontext c = (CUcontext)1;
    *(CUresult *)arg = cuCtxGetCurrent(&c);
    return c; /* a new thread starts with no current context */
}

static void test_contexts(void)
{
    CUcontext c = NULL, top = NULL, primary = NULL, again = NULL;
    OK(cuCtxGetCurrent(&top));
    CU_ASSERT_PTR_EQUAL(top, ctx);
    OK(cuCtxCreate(&c, NULL, 0, 1));
    OK(cuCtxGetCurrent(&top));
    CU_ASSERT_PTR_EQUAL(top, c);
    CUdevice dev = -1;
    OK(cuCtxGetDevice(&dev));
    CU_ASSERT_EQUAL(dev, 1);
    OK(cuCtxPopCurrent(&top));
    CU_ASSERT_PTR_EQUAL(top, c);
    OK(cuCtxGetCurrent(&top));
    CU_ASSERT_PTR_EQUAL(top, ctx);
    OK(cuCtxDestroy(c));
    CU_ASSERT_EQUAL(cuCtxPushCurrent(c), CUDA_ERROR_INVALID_CONTEXT);
    pthread_t t;
    CUresult tr = CUDA_ERROR_UNKNOWN;
    void *seen = NULL;
    pthread_create(&t, NULL, other_thread, &tr);
    pthread_join(t, &seen);
    CU_ASSERT_EQUAL(tr, CUDA_SUCCESS);
    CU_ASSERT_PTR_NULL(seen);
    unsigned int flags = 1;
    int active = 1;
    OK(cuDevicePrimaryCtxRetain(&primary, 1));
    OK(cuDevicePrimaryCtxRetain(&again, 1));
    CU_ASSERT_PTR_EQUAL(primary, again);
    OK(cuDevicePrimaryCtxGetState(1, &flags, &active));
    CU_ASSERT_EQUAL(active, 1);
    CU_ASSERT_EQUAL(cuDevicePrimaryCtxSetFlags_v2(1, CU_CTX_SCHED_YIELD), CUDA_SUCCESS);
    OK(cuDevicePrimaryCtxRelease(1));
    OK(cuDevicePrimaryCtxRelease(1));
    OK(cuDevicePrimaryCtxGetState(1, &flags, &active));
    CU_ASSERT_EQUAL(active, 0);
    CU_ASSERT_EQUAL(flags, CU_CTX_SCHED_YIELD);
    CU_ASSERT_EQUAL(cuDevicePrimaryCtxRelease(1), CUDA_ERROR_INVALID_CONTEXT);
}

static unsigned int attr_u(CUpointer_attribute a, CUdeviceptr p)
{
    unsigned int v = 0xdead;
    CU_ASSERT_EQUAL(cuPointerGetAttribute(&v, a, p), CUDA_SUCCESS);
    return v;
}

static void test_memory(void)
{
    CUdeviceptr d, m, a;
    void *h;
    size_t free0, free1, total;
    OK(cuMemGetInfo(&free0, &total));
    OK(cuMemAlloc(&d, 1000));
    OK(cuMemGetInfo(&free1, &total));
    CU_ASSERT_EQUAL(free0 - free1, 1000);
    OK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
    OK(cuMemAllocHost(&h, 64));
    OK(cuMemAllocAsync(&a, 64, NULL));
    CU_ASSERT_EQUAL(attr_u(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 10), CU_MEMORYTYPE_DEVICE);
    CU_ASSERT_EQUAL(attr_u(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)h), CU_MEMORYTYPE_HOST);
    CU_ASSERT_EQUAL(attr_u(CU_POINTER_ATTRIBUTE_IS_MANAGED, m), 1);
    CU_ASSERT_EQUAL(attr_u(CU_POINTER_ATTRIBUTE_IS_MANAGED, d), 0);
    CU_ASSERT_EQUAL(attr_u(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, a), 0);
    CUcontext owner = NULL;
    OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, d));
    CU_ASSERT_PTR_EQUAL(owner, ctx);
    CUmemoryPool pool = NULL, dflt = NULL;
    OK(cuPointerGetAttribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a));
    OK(cuDeviceGetDefaultMemPool(&dflt, 0));
    CU_ASSERT_PTR_EQUAL(pool, dflt);
    int stack_var = 0;
    unsigned int type = 77;
    CU_ASSERT_EQUAL(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)&stack_var),
                    CUDA_ERROR_INVALID_VALUE);
    CUpointer_attribute attrs[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    int ordinal = 77;
    void *values[2] = {&type, &ordinal};
    OK(cuPointerGetAttributes(2, attrs, values, (CUdeviceptr)&stack_var));
    CU_ASSERT_EQUAL(type, 0);
    CU_ASSERT_EQUAL(ordinal, -2);
    /* frees: the right kind only, once */
    CU_ASSERT_EQUAL(cuMemFreeHost((void *)d), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_EQUAL(cuMemFree(d + 8), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(d));
    CU_ASSERT_EQUAL(cuMemFree(d), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(0));
    OK(cuMemFree(m));
    OK(cuMemFreeHost(h));
    OK(cuMemFreeAsync(a, NULL));
    CU_ASSERT_EQUAL(cuMemFreeAsync(a, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemGetInfo(&free1, &total));
    CU_ASSERT_EQUAL(free1, free0);
}

/* The 2.0 variants keep their 32-bit ABI: 32-bit device pointers and sizes. */
static void test_legacy_variants(void)
{
    typedef CUresult (*alloc_v1)(unsigned int *dptr, unsigned int size);
    typedef CUresult (*htod_v1)(unsigned int dst, const void *src, unsigned int size);
    typedef CUresult (*dtoh_v1)(void *dst, unsigned int src, unsigned int size);
    typedef CUresult (*free_v1)(unsigned int dptr);
    CUresult r;
    CUdriverProcAddressQueryResult st;
    alloc_v1 alloc = (alloc_v1)lookup("cuMemAlloc", 2000, 0, &r, &st);
    htod_v1 htod = (htod_v1)lookup("cuMemcpyHtoD", 2000, 0, &r, &st);
    dtoh_v1 dtoh = (dtoh_v1)lookup("cuMemcpyDtoH", 2000, 0, &r, &st);
    free_v1 release = (free_v1)lookup("cuMemFree", 2000, 0, &r, &st);
    CU_ASSERT_FATAL(alloc && htod && dtoh && release);
    unsigned int d = 0;
    char in[16] = "legacy 32 bits", out[16] = "";
    OK(alloc(&d, sizeof in));
    CU_ASSERT(d != 0);
    OK(htod(d, in, sizeof in));
    OK(dtoh(out, d, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, in);
    OK(release(d));
    CU_ASSERT_EQUAL(release(d), CUDA_ERROR_INVALID_VALUE);
}

static void test_copies(void)
{
    CUdeviceptr d;
    size_t pitch = 0;
    OK(cuMemAllocPitch(&d, &pitch, 10, 4, 4));
    CU_ASSERT(pitch >= 10);
    unsigned char host[4][10], back[4][10];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 10; x++)
            host[y][x] = (unsigned char)(16 * y + x);
    CUDA_MEMCPY2D c = {.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = host, .srcPitch = 10,
                       .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d, .dstPitch = pitch,
                       .WidthInBytes = 10, .Height = 4};
    OK(cuMemcpy2D(&c));
    CUDA_MEMCPY2D b = {.srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d, .srcPitch = pitch,
                       .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = back, .dstPitch = 10,
                       .WidthInBytes = 10, .Height = 4};
    OK(cuMemcpy2DAsync(&b, NULL));
    CU_ASSERT(memcmp(host, back, sizeof host) == 0);
    c.Height = 1000; /* beyond the allocation */
    CU_ASSERT_EQUAL(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
    uint32_t words[4];
    OK(cuMemsetD32(d, 0xabcd1234u, 4));
    OK(cuMemcpyDtoH(words, d, sizeof words));
    CU_ASSERT_EQUAL(words[3], 0xabcd1234u);
    CU_ASSERT_EQUAL(cuMemsetD16(d + 1, 7, 2), CUDA_ERROR_INVALID_VALUE); /* misaligned */
    CU_ASSERT_EQUAL(cuMemcpyHtoD(d + pitch * 4 - 2, words, 16), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(d));
}

static void test_events(void)
{
    CUevent a, b, untimed;
    CUstream s;
    float ms = -1;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&a, 0));
    OK(cuEventCreate(&b, 0));
    OK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
    CU_ASSERT_EQUAL(cuEventElapsedTime(&ms, a, b), CUDA_ERROR_INVALID_HANDLE); /* not recorded */
    OK(cuEventRecord(a, s));
    OK(cuEventRecord(b, s));
    OK(cuEventRecord(untimed, s));
    OK(cuStreamSynchronize(s));
    OK(cuEventElapsedTime(&ms, a, b));
    CU_ASSERT(ms >= 0);
    CU_ASSERT_EQUAL(cuEventElapsedTime(&ms, a, untimed), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy(a));
    CU_ASSERT_EQUAL(cuEventDestroy(a), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy(b));
    OK(cuEventDestroy(untimed));
    OK(cuStreamDestroy(s));
    CU_ASSERT_EQUAL(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
}

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                          "// .entry commented_out()\n"
                          ".visible .entry mystery(.param .u64 p, .param .align 8 .b8 s[12], .param .u16 h)\n"
                          "{\n ret;\n}\n";

static void test_modules_and_launches(void)
{
    CUmodule mod;
    CUfunction f;
    const char *name;
    size_t offset, size;
    OK(cuModuleLoadData(&mod, ptx));
    CU_ASSERT_EQUAL(cuModuleGetFunction(&f, mod, "commented_out"), CUDA_ERROR_NOT_FOUND);
    OK(cuModuleGetFunction(&f, mod, "mystery"));
    OK(cuFuncGetName(&name, f));
    CU_ASSERT_STRING_EQUAL(name, "mystery");
    OK(cuFuncGetParamInfo(f, 1, &offset, &size));
    CU_ASSERT_EQUAL(offset, 8);
    CU_ASSERT_EQUAL(size, 12);
    OK(cuFuncGetParamInfo(f, 2, &offset, &size));
    CU_ASSERT_EQUAL(offset, 20);
    /* a kernel without an implementation launches as a no-op */
    uint64_t p = 0;
    char s[12] = "";
    uint16_t h = 0;
    void *params[] = {&p, s, &h};
    OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    unsigned char packed[22] = {0};
    size_t small = 20, full = sizeof packed;
    void *too_small[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &small, CU_LAUNCH_PARAM_END};
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &full, CU_LAUNCH_PARAM_END};
    CU_ASSERT_EQUAL(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, too_small), CUDA_ERROR_INVALID_VALUE);
    CUresult r;
    CUdriverProcAddressQueryResult st;
    PFN_cuLaunchKernel_v7000_ptsz launch_ptsz = (PFN_cuLaunchKernel_v7000_ptsz)lookup("cuLaunchKernel", 7000, 2, &r, &st);
    CU_ASSERT_PTR_NOT_NULL_FATAL(launch_ptsz);
    OK(launch_ptsz(f, 1, 1, 1, 1, 1, 1, 0, CU_STREAM_PER_THREAD, NULL, extra));
    CU_ASSERT_EQUAL(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, extra), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_EQUAL(cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_EQUAL(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuModuleUnload(mod));
    CU_ASSERT_EQUAL(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    CU_ASSERT_EQUAL(cuModuleLoadData(&mod, "not PTX at all"), CUDA_ERROR_INVALID_IMAGE);
}

static void test_linker(void)
{
    static const char caller[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                                 ".extern .func (.param .b32 r) helper\n(\n.param .b32 a\n)\n;\n"
                                 ".visible .entry k()\n{\n ret;\n}\n";
    static const char callee[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                                 ".visible .func (.param .b32 r) helper(.param .b32 a)\n{\n ret;\n}\n";
    char error[256] = "";
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME};
    void *values[] = {error, (void *)sizeof error, NULL};
    CUlinkState link;
    void *image;
    size_t size;
    OK(cuLinkCreate(3, options, values, &link));
    OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)caller, sizeof caller, "caller.ptx", 0, NULL, NULL));
    CU_ASSERT_EQUAL(cuLinkComplete(link, &image, &size), CUDA_ERROR_INVALID_SOURCE);
    CU_ASSERT_STRING_EQUAL(error, "error   : Undefined reference to 'helper' in 'caller.ptx'");
    CU_ASSERT_EQUAL((size_t)values[1], strlen(error));
    OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)callee, sizeof callee, "callee.ptx", 0, NULL, NULL));
    OK(cuLinkComplete(link, &image, &size));
    float ms = -1;
    memcpy(&ms, &values[2], sizeof ms);
    CU_ASSERT(ms >= 0);
    CUmodule mod;
    CUfunction f;
    OK(cuModuleLoadData(&mod, image));
    OK(cuLinkDestroy(link));
    OK(cuModuleGetFunction(&f, mod, "k"));
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    OK(cuModuleUnload(mod));
}

/* Two devices: peer access as cuda.h documents its errors, and peer copies moving bytes between the devices'
 * memory (ctx is device 0's; a context of device 1 is made here). */
static void test_peers(void)
{
    int can = -1;
    OK(cuDeviceCanAccessPeer(&can, 0, 1));
    CU_ASSERT_EQUAL(can, 1);
    OK(cuDeviceCanAccessPeer(&can, 1, 1));
    CU_ASSERT_EQUAL(can, 0);
    CU_ASSERT_EQUAL(cuDeviceCanAccessPeer(&can, 0, 2), CUDA_ERROR_INVALID_DEVICE);

    CUcontext other, same;
    CUdevice dev1;
    OK(cuDeviceGet(&dev1, 1));
    OK(cuCtxCreate(&other, NULL, 0, dev1));
    OK(cuCtxPopCurrent(NULL));
    OK(cuCtxCreate(&same, NULL, 0, 0)); /* a second context of device 0 */
    OK(cuCtxPopCurrent(NULL));
    CU_ASSERT_EQUAL(cuCtxEnablePeerAccess(ctx, 0), CUDA_ERROR_INVALID_CONTEXT);      /* itself */
    CU_ASSERT_EQUAL(cuCtxEnablePeerAccess(other, 1), CUDA_ERROR_INVALID_VALUE);      /* flags */
    CU_ASSERT_EQUAL(cuCtxEnablePeerAccess(same, 0), CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
    CU_ASSERT_EQUAL(cuCtxDisablePeerAccess(other), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    OK(cuCtxEnablePeerAccess(other, 0));
    CU_ASSERT_EQUAL(cuCtxEnablePeerAccess(other, 0), CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
    OK(cuCtxDisablePeerAccess(other));
    OK(cuCtxEnablePeerAccess(other, 0));
    OK(cuCtxDestroy(same));
    CU_ASSERT_EQUAL(cuCtxEnablePeerAccess(same, 0), CUDA_ERROR_INVALID_CONTEXT);    /* destroyed */

    /* 4 KiB on each device; device 0 -> 1 with cuMemcpyPeer, back with cuMemcpyPeerAsync. */
    unsigned char in[4096], out[4096];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (unsigned char)(i * 13 + 1);
    CUdeviceptr d0, d1;
    OK(cuMemAlloc(&d0, sizeof in));
    OK(cuCtxPushCurrent(other));
    OK(cuMemAlloc(&d1, sizeof in));
    OK(cuCtxPopCurrent(NULL));
    CU_ASSERT_EQUAL(attr_u(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d1), 1);
    OK(cuMemcpyHtoD(d0, in, sizeof in));
    OK(cuMemcpyPeer(d1, other, d0, ctx, sizeof in));
    OK(cuMemsetD8(d0, 0, sizeof in));
    OK(cuMemcpyPeerAsync(d0, ctx, d1, other, sizeof in, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH(out, d0, sizeof out));
    CU_ASSERT(memcmp(in, out, sizeof in) == 0);
    CU_ASSERT_EQUAL(cuMemcpyPeer(d1, NULL, d0, ctx, sizeof in), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_EQUAL(cuMemcpyPeer(d1 + 4000, other, d0, ctx, 200), CUDA_ERROR_INVALID_VALUE); /* past d1 */

    /* A 3D box: 16 bytes x 4 rows x 2 slices of d0 (rows 32 bytes apart, slices of 8 rows) to dense rows of d1,
     * at x 8, y 1, z 0 of d0; then back with the async form into a cleared d0. */
    OK(cuMemsetD8(d1, 0, sizeof in));
    CUDA_MEMCPY3D_PEER c = {.srcXInBytes = 8, .srcY = 1, .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d0,
                            .srcContext = ctx, .srcPitch = 32, .srcHeight = 8,
                            .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d1, .dstContext = other,
                            .dstPitch = 16, .dstHeight = 4, .WidthInBytes = 16, .Height = 4, .Depth = 2};
    OK(cuMemcpy3DPeer(&c));
    OK(cuCtxPushCurrent(other));
    OK(cuMemcpyDtoH(out, d1, sizeof out));
    OK(cuCtxPopCurrent(NULL));
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 4; y++)
            for (size_t x = 0; x < 16; x++)
                CU_ASSERT_EQUAL(out[(z * 4 + y) * 16 + x], in[z * 256 + (y + 1) * 32 + 8 + x]);
    CU_ASSERT_EQUAL(out[128], 0); /* nothing past the box */
    CUDA_MEMCPY3D_PEER back = {.srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d1, .srcContext = other,
                               .srcPitch = 16, .srcHeight = 4, .dstXInBytes = 8, .dstY = 1,
                               .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d0, .dstContext = ctx,
                               .dstPitch = 32, .dstHeight = 8, .WidthInBytes = 16, .Height = 4, .Depth = 2};
    OK(cuMemsetD8(d0, 0, sizeof in));
    OK(cuMemcpy3DPeerAsync(&back, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH(out, d0, sizeof out));
    CU_ASSERT_EQUAL(out[256 + 2 * 32 + 8 + 5], in[256 + 2 * 32 + 8 + 5]);
    CU_ASSERT_EQUAL(out[256 + 2 * 32 + 7], 0); /* just left of the box */
    back.Depth = 200; /* beyond d0 */
    CU_ASSERT_EQUAL(cuMemcpy3DPeer(&back), CUDA_ERROR_INVALID_VALUE);
    back.Depth = 2;
    back.dstHeight = 2; /* slices shorter than the copy's rows */
    CU_ASSERT_EQUAL(cuMemcpy3DPeer(&back), CUDA_ERROR_INVALID_VALUE);
    back.dstHeight = 8;
    back.srcContext = NULL;
    CU_ASSERT_EQUAL(cuMemcpy3DPeer(&back), CUDA_ERROR_INVALID_CONTEXT);

    OK(cuMemFree(d0));
    OK(cuCtxDestroy(other)); /* frees d1 */
    CU_ASSERT_EQUAL(cuCtxDisablePeerAccess(other), CUDA_ERROR_INVALID_CONTEXT);
}

/* The second suite runs in a context of device 0, made current on the main thread. */
static int enter_context(void)
{
    CUdevice dev;
    return cuDeviceGet(&dev, 0) != CUDA_SUCCESS || cuCtxCreate(&ctx, NULL, 0, dev) != CUDA_SUCCESS;
}

static int leave_context(void)
{
    return cuCtxDestroy(ctx) != CUDA_SUCCESS;
}

int main(void)
{
    if (!(library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)))
        return 2;
    CU_TestInfo driver[] = {
        {"before and after cuInit", test_before_init}, /* first: cuInit is process-wide */
        {"cuGetProcAddress variants by version", test_proc_address_variants},
        {"cuGetProcAddress per-thread flag", test_proc_address_per_thread},
        {"cuGetProcAddress errors and misses", test_proc_address_errors},
        {"errors and devices", test_errors_and_devices},
        CU_TEST_INFO_NULL,
    };
    CU_TestInfo in_context[] = {
        {"contexts", test_contexts},
        {"memory kinds, attributes, frees", test_memory},
        {"legacy 32-bit variants", test_legacy_variants},
        {"copies and sets", test_copies},
        {"two devices: peer access and peer copies", test_peers},
        {"streams and events", test_events},
        {"modules and launches", test_modules_and_launches},
        {"linker", test_linker},
        CU_TEST_INFO_NULL,
    };
    CU_SuiteInfo suites[] = {
        {"simdriver: driver", NULL, NULL, NULL, NULL, driver},
        {"simdriver: in a context", enter_context, leave_context, NULL, NULL, in_context},
        CU_SUITE_INFO_NULL,
    };
    return cunit_run(suites);
}
