// Driver entry points by version (runtime + driver, built with -cudart shared -lcuda): the runtime's
// cudaGetDriverEntryPointByVersion and the driver's cuGetProcAddress (both ABIs) asked for functions whose
// signature changed between versions, each pointer called with its own version's signature:
//   - cuStreamBeginCapture at 10000 (hStream only) and at 10010 (hStream, mode), each beginning a real capture
//     of 2 launches of epAddOne, ended, instantiated and launched as a graph; the 10010 one in relaxed mode,
//     which lets cuMemAlloc run during the capture (proof that the mode argument arrived);
//   - cuDeviceGetUuid at 11040 (the _v2 ABI), compared with cudaDeviceProp::uuid;
//   - cuMemAllocAsync and cuMemFreeAsync at 11020 through cudaGetDriverEntryPointByVersion, the memory
//     used by 1 launch of epAddOne;
//   - per-thread default stream look-ups: cuLaunchKernel and cuMemcpyHtoD at 7000 with
//     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, cuMemcpyDtoH at 7000 with cudaEnablePerThreadDefaultStream:
//     the _ptsz/_ptds variants, used for 1 launch and 1 copy each way on the per-thread stream;
//   - the misses: cuDeviceGetExecAffinitySupport at 11030 (introduced in 11040: version not sufficient), a
//     misspelled name (symbol not found), cuStreamBeginCapture at 9000 (before it existed), each asked of
//     the 5-argument cuGetProcAddress_v2, the 4-argument cuGetProcAddress (11030 ABI) and the runtime.
// What a miss returns, as documented in cuda.h / cuda_runtime_api.h (CUDA 13.0) and measured on driver 580:
// cuGetProcAddress_v2 returns CUDA_SUCCESS with *pfn = NULL and the reason in *symbolStatus; the 4-argument
// form has no status and returns CUDA_ERROR_NOT_FOUND; cudaGetDriverEntryPointByVersion is documented to
// return cudaSuccess with *funcPtr = NULL and the reason in *driverStatus (cudaErrorSymbolNotFound is
// accepted too, and cleared). The trace therefore holds exactly 3 failed calls: the 4-argument misses.
// tests/gpu/expect/rt_entry_points.sh asserts the variants, launches, allocations, copies and those errors.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#define RT_CHECK(call) check_rt((call), #call, __LINE__)
#define DRV_CHECK(call) check_drv((call), #call, __LINE__)

static void check_rt(cudaError_t e, const char *call, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "rt_entry_points:%d: %s failed: %s\n", line, call, cudaGetErrorString(e));
        exit(1);
    }
}

static void check_drv(CUresult r, const char *call, int line)
{
    if (r != CUDA_SUCCESS) {
        const char *name = "?";
        cuGetErrorName(r, &name);
        fprintf(stderr, "rt_entry_points:%d: %s returned %d (%s)\n", line, call, (int)r, name);
        exit(1);
    }
}

static void require(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rt_entry_points: FAILED: %s\n", what);
        exit(1);
    }
}

// The CUDA 10.0 ABI of cuStreamBeginCapture: cudaTypedefs.h declares PFN_cuStreamBeginCapture_v10000 only
// for the driver's own build (__CUDA_API_VERSION_INTERNAL).
typedef CUresult(CUDAAPI *BeginCaptureV10000)(CUstream hStream);

static const int kN = 4096;
static const int kBlock = 256;

extern "C" __global__ void epAddOne(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}

// A driver function found by the 5-argument cuGetProcAddress (cuGetProcAddress_v2 through cuda.h).
static void *driver_fn(const char *symbol, int version, cuuint64_t flags)
{
    void *pfn = NULL;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    DRV_CHECK(cuGetProcAddress(symbol, &pfn, version, flags, &status));
    require(status == CU_GET_PROC_ADDRESS_SUCCESS && pfn != NULL, symbol);
    return pfn;
}

// A driver function found by the runtime.
static void *runtime_fn(const char *symbol, unsigned version, unsigned long long flags)
{
    void *pfn = NULL;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    RT_CHECK(cudaGetDriverEntryPointByVersion(symbol, &pfn, version, flags, &status));
    require(status == cudaDriverEntryPointSuccess && pfn != NULL, symbol);
    return pfn;
}

static void check_all(const int *dev, int want, const char *what)
{
    static int host[kN];
    RT_CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; i++)
        require(host[i] == want, what);
}

// Ends the capture on `stream` (2 launches), instantiates and launches the graph once.
static void end_and_replay(cudaStream_t stream, PFN_cuStreamEndCapture_v10000 end_capture)
{
    CUgraph graph;
    cudaGraphExec_t exec;
    DRV_CHECK(end_capture((CUstream)stream, &graph));
    RT_CHECK(cudaGraphInstantiate(&exec, (cudaGraph_t)graph, 0));
    RT_CHECK(cudaGraphLaunch(exec, stream));
    RT_CHECK(cudaStreamSynchronize(stream));
    RT_CHECK(cudaGraphExecDestroy(exec));
    RT_CHECK(cudaGraphDestroy((cudaGraph_t)graph));
}

static void capture_launches(cudaStream_t stream, int *dev)
{
    cudaStreamCaptureStatus status;
    RT_CHECK(cudaStreamIsCapturing(stream, &status));
    require(status == cudaStreamCaptureStatusActive, "the stream is capturing");
    for (int k = 0; k < 2; k++)
        epAddOne<<<kN / kBlock, kBlock, 0, stream>>>(dev, kN);
    RT_CHECK(cudaGetLastError());
}

static void stream_capture(int *dev)
{
    cudaStream_t stream;
    RT_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    auto begin_v10000 = (BeginCaptureV10000)driver_fn("cuStreamBeginCapture", 10000, CU_GET_PROC_ADDRESS_DEFAULT);
    auto begin_v10010 =
        (PFN_cuStreamBeginCapture_v10010)driver_fn("cuStreamBeginCapture", 10010, CU_GET_PROC_ADDRESS_DEFAULT);
    auto end_capture = (PFN_cuStreamEndCapture_v10000)driver_fn("cuStreamEndCapture", 10000, CU_GET_PROC_ADDRESS_DEFAULT);

    DRV_CHECK(begin_v10000((CUstream)stream));
    capture_launches(stream, dev);
    end_and_replay(stream, end_capture);
    check_all(dev, 2, "values after the graph captured through the 10000 ABI");
    printf("cuStreamBeginCapture@10000: captured 2 launches, graph replayed: ok\n");

    DRV_CHECK(begin_v10010((CUstream)stream, CU_STREAM_CAPTURE_MODE_RELAXED));
    capture_launches(stream, dev);
    CUdeviceptr scratch; // not a stream operation: allowed during a capture only in relaxed mode
    DRV_CHECK(cuMemAlloc(&scratch, 1024));
    end_and_replay(stream, end_capture);
    DRV_CHECK(cuMemFree(scratch));
    check_all(dev, 4, "values after the graph captured through the 10010 ABI");
    printf("cuStreamBeginCapture@10010 (relaxed): captured 2 launches, graph replayed: ok\n");
    RT_CHECK(cudaStreamDestroy(stream));
}

static void device_uuid(void)
{
    auto get_uuid = (PFN_cuDeviceGetUuid_v11040)driver_fn("cuDeviceGetUuid", 11040, CU_GET_PROC_ADDRESS_DEFAULT);
    CUdevice device;
    CUuuid uuid;
    cudaDeviceProp prop;
    DRV_CHECK(cuDeviceGet(&device, 0));
    DRV_CHECK(get_uuid(&uuid, device));
    RT_CHECK(cudaGetDeviceProperties(&prop, 0));
    require(memcmp(uuid.bytes, prop.uuid.bytes, sizeof uuid.bytes) == 0, "cuDeviceGetUuid@11040 = cudaDeviceProp::uuid");
    printf("cuDeviceGetUuid@11040: matches cudaDeviceProp::uuid: ok\n");
}

static void async_allocation(void)
{
    auto alloc_async = (PFN_cuMemAllocAsync_v11020)runtime_fn("cuMemAllocAsync", 11020, cudaEnableDefault);
    auto free_async = (PFN_cuMemFreeAsync_v11020)runtime_fn("cuMemFreeAsync", 11020, cudaEnableDefault);
    cudaStream_t stream;
    RT_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUdeviceptr p;
    DRV_CHECK(alloc_async(&p, kN * sizeof(int), (CUstream)stream));
    RT_CHECK(cudaMemsetAsync((void *)p, 0, kN * sizeof(int), stream));
    epAddOne<<<kN / kBlock, kBlock, 0, stream>>>((int *)p, kN);
    RT_CHECK(cudaGetLastError());
    RT_CHECK(cudaStreamSynchronize(stream));
    check_all((const int *)p, 1, "values in the stream-ordered allocation");
    DRV_CHECK(free_async(p, (CUstream)stream));
    RT_CHECK(cudaStreamSynchronize(stream));
    RT_CHECK(cudaStreamDestroy(stream));
    printf("cuMemAllocAsync@11020 via cudaGetDriverEntryPointByVersion: allocated, used, freed: ok\n");
}

static void per_thread_stream(int *dev)
{
    auto launch = (PFN_cuLaunchKernel_v7000_ptsz)driver_fn("cuLaunchKernel", 7000,
                                                           CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    auto htod = (PFN_cuMemcpyHtoD_v7000_ptds)driver_fn("cuMemcpyHtoD", 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    auto dtoh = (PFN_cuMemcpyDtoH_v7000_ptds)runtime_fn("cuMemcpyDtoH", 7000, cudaEnablePerThreadDefaultStream);
    static int host[kN];
    for (int i = 0; i < kN; i++)
        host[i] = i;
    CUfunction add_one;
    RT_CHECK(cudaGetFuncBySymbol(&add_one, (const void *)epAddOne));
    CUdeviceptr d = (CUdeviceptr)dev;
    int n = kN;
    void *params[] = {&d, &n};
    DRV_CHECK(htod(d, host, sizeof host));
    DRV_CHECK(launch(add_one, kN / kBlock, 1, 1, kBlock, 1, 1, 0, NULL, params, NULL)); // per-thread stream
    DRV_CHECK(dtoh(host, d, sizeof host));
    for (int i = 0; i < kN; i++)
        require(host[i] == i + 1, "values after the per-thread-stream launch");
    printf("per-thread default stream: cuLaunchKernel_ptsz, cuMemcpyHtoD_v2_ptds, cuMemcpyDtoH_v2_ptds: ok\n");
}

struct Miss {
    const char *symbol;
    int version;
    CUdriverProcAddressQueryResult status;
    const char *why;
};

static void misses(void)
{
    static const Miss cases[] = {
        {"cuDeviceGetExecAffinitySupport", 11030, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, "version not sufficient"},
        {"cuStreamBeginCaptur", 13000, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, "symbol not found"},
        {"cuStreamBeginCapture", 9000, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, "not found at 9000"},
    };
    auto get_proc_v11030 = (PFN_cuGetProcAddress_v11030)driver_fn("cuGetProcAddress", 11030, CU_GET_PROC_ADDRESS_DEFAULT);
    for (const Miss &m : cases) {
        void *pfn = &pfn; // anything but NULL: a miss must clear it
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
        DRV_CHECK(cuGetProcAddress(m.symbol, &pfn, m.version, CU_GET_PROC_ADDRESS_DEFAULT, &status));
        require(pfn == NULL && status == m.status, "cuGetProcAddress_v2 miss: CUDA_SUCCESS, NULL, the reason");

        pfn = NULL;
        CUresult r = get_proc_v11030(m.symbol, &pfn, m.version, CU_GET_PROC_ADDRESS_DEFAULT);
        require(r == CUDA_ERROR_NOT_FOUND && pfn == NULL, "cuGetProcAddress (11030 ABI) miss: CUDA_ERROR_NOT_FOUND");

        pfn = &pfn;
        cudaDriverEntryPointQueryResult rt_status = cudaDriverEntryPointSuccess;
        cudaError_t e = cudaGetDriverEntryPointByVersion(m.symbol, &pfn, m.version, cudaEnableDefault, &rt_status);
        require((e == cudaSuccess || e == cudaErrorSymbolNotFound) && pfn == NULL && (int)rt_status == (int)m.status,
                "cudaGetDriverEntryPointByVersion miss: NULL and the reason");
        cudaGetLastError(); // a cudaErrorSymbolNotFound must not linger
        printf("miss %s@%d (%s): NULL from the driver (both ABIs) and the runtime: ok\n", m.symbol, m.version, m.why);
    }
}

int main(void)
{
    int *dev;
    RT_CHECK(cudaMalloc((void **)&dev, kN * sizeof(int)));
    RT_CHECK(cudaMemset(dev, 0, kN * sizeof(int)));
    stream_capture(dev);
    device_uuid();
    async_allocation();
    per_thread_stream(dev);
    misses();
    RT_CHECK(cudaFree(dev));
    RT_CHECK(cudaGetLastError());
    printf("rt_entry_points: PASSED\n");
    return 0;
}
