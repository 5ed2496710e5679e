// Driver/runtime interop (built with -lcuda, static cudart): the runtime's primary context is the driver's
// current context; a runtime allocation (cudaMalloc) is filled by a runtime copy, scaled by a driver launch
// (interopScale, from PTX loaded with cuModuleLoadData, launched with cuLaunchKernel on a runtime stream) and
// read back with a driver copy; then a driver allocation (cuMemAlloc) filled by a driver copy is incremented
// by a runtime launch (interopAddOne<<<>>>) and read back with a runtime copy. Every result is checked.
// tests/gpu/expect/rt_interop.sh asserts both launches, the allocations and copies of both APIs.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

static void check_rt(cudaError_t e, const char *call, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "rt_interop:%d: %s failed: %s\n", line, call, cudaGetErrorString(e));
        exit(1);
    }
}

static void check_drv(CUresult r, const char *call, int line)
{
    if (r != CUDA_SUCCESS) {
        const char *name = "?";
        cuGetErrorName(r, &name);
        fprintf(stderr, "rt_interop:%d: %s returned %d (%s)\n", line, call, (int)r, name);
        exit(1);
    }
}

#define RT_CHECK(call) check_rt((call), #call, __LINE__)
#define DRV_CHECK(call) check_drv((call), #call, __LINE__)

static void require(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rt_interop: FAILED: %s\n", what);
        exit(1);
    }
}

static const int kN = 8192;
static const int kBlock = 128;

extern "C" __global__ void interopAddOne(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

// interopScale(float *x, int n, float k): x[i] *= k for i < n.  Written for the driver's JIT (PTX 8.0, any
// GPU from sm_75), so that the driver, not the runtime, loads and launches it.
static const char kScalePtx[] = R"(
.version 8.0
.target sm_75
.address_size 64

.visible .entry interopScale(
	.param .u64 interopScale_param_0,
	.param .u32 interopScale_param_1,
	.param .f32 interopScale_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [interopScale_param_0];
	ld.param.u32 	%r2, [interopScale_param_1];
	ld.param.f32 	%f1, [interopScale_param_2];
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %ctaid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__done;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f2, [%rd4];
	mul.rn.f32 	%f3, %f2, %f1;
	st.global.f32 	[%rd4], %f3;
$L__done:
	ret;
}
)";

static float host[kN];

int main(void)
{
    const size_t bytes = sizeof host;
    RT_CHECK(cudaSetDevice(0));
    RT_CHECK(cudaFree(0)); // makes the runtime create (retain) the primary context and set it current
    CUcontext current = NULL, primary = NULL;
    CUdevice device;
    DRV_CHECK(cuCtxGetCurrent(&current));
    DRV_CHECK(cuDeviceGet(&device, 0));
    DRV_CHECK(cuDevicePrimaryCtxRetain(&primary, device));
    require(current != NULL && current == primary, "the runtime's context is the device's primary context");
    printf("runtime context = driver primary context: ok\n");

    // Runtime memory, driver launch, driver copy back.
    CUmodule module;
    CUfunction scale;
    DRV_CHECK(cuModuleLoadData(&module, kScalePtx));
    DRV_CHECK(cuModuleGetFunction(&scale, module, "interopScale"));
    cudaStream_t stream;
    RT_CHECK(cudaStreamCreate(&stream));
    float *rt_buf;
    RT_CHECK(cudaMalloc((void **)&rt_buf, bytes));
    for (int i = 0; i < kN; i++)
        host[i] = (float)(i % 1000);
    RT_CHECK(cudaMemcpy(rt_buf, host, bytes, cudaMemcpyHostToDevice));
    CUdeviceptr arg = (CUdeviceptr)rt_buf;
    int n = kN;
    float k = 4.0f;
    void *params[] = {&arg, &n, &k};
    DRV_CHECK(cuLaunchKernel(scale, kN / kBlock, 1, 1, kBlock, 1, 1, 0, (CUstream)stream, params, NULL));
    DRV_CHECK(cuStreamSynchronize((CUstream)stream));
    DRV_CHECK(cuMemcpyDtoH(host, arg, bytes));
    for (int i = 0; i < kN; i++)
        require(host[i] == 4.0f * (float)(i % 1000), "interopScale (driver launch) on runtime memory");
    printf("cudaMalloc memory scaled by a driver launch, read by cuMemcpyDtoH: ok\n");

    // Driver memory, runtime launch, runtime copy back.
    CUdeviceptr drv_buf;
    DRV_CHECK(cuMemAlloc(&drv_buf, bytes));
    DRV_CHECK(cuMemcpyHtoD(drv_buf, host, bytes));
    interopAddOne<<<kN / kBlock, kBlock, 0, stream>>>((float *)drv_buf, kN);
    RT_CHECK(cudaGetLastError());
    RT_CHECK(cudaMemcpyAsync(host, (const void *)drv_buf, bytes, cudaMemcpyDeviceToHost, stream));
    RT_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < kN; i++)
        require(host[i] == 4.0f * (float)(i % 1000) + 1.0f, "interopAddOne (runtime launch) on driver memory");
    printf("cuMemAlloc memory incremented by a runtime launch, read by cudaMemcpyAsync: ok\n");

    DRV_CHECK(cuMemFree(drv_buf));
    RT_CHECK(cudaFree(rt_buf));
    RT_CHECK(cudaStreamDestroy(stream));
    DRV_CHECK(cuModuleUnload(module));
    DRV_CHECK(cuDevicePrimaryCtxRelease(device));
    printf("rt_interop: PASSED\n");
    return 0;
}
