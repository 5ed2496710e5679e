/* vectorAddDrv-style sample (driver API, linked with -lcuda): loads PTX from a file (cuModuleLoad) and from
 * memory (cuModuleLoadDataEx with JIT log options), then adds vectors twice: once with kernelParams, once with
 * the arguments packed into an `extra` buffer at their device alignment, a float4 among them.
 * Usage: vectoradd_drv [PTX_DIR]   (default: the executable's directory). Exit 0 and "PASSED" when every
 * result is right; 1 on a wrong result or any CUDA error. */
#include "config.h"

#include "drv_sample.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 50000
#define THREADS 256
#define LOG_SIZE 8192

typedef struct {
    alignas(16) float x;
    float y, z, w;
} float4_arg; /* the layout of CUDA's float4: 16 bytes, 16-byte aligned */

#define ALIGN_UP(offset, alignment) (((offset) + (alignment) - 1) & ~((alignment) - 1))

/* Appends one argument to a packed parameter buffer at its alignment, as the driver lays them out. */
static size_t pack(unsigned char *buffer, size_t offset, const void *arg, size_t size, size_t align)
{
    offset = ALIGN_UP(offset, align);
    memcpy(buffer + offset, arg, size);
    return offset + size;
}

static void fill_inputs(float *a, float *b)
{
    for (int i = 0; i < N; i++) { /* small integers: every sum and product below is exact in float */
        a[i] = (float)(i % 1000);
        b[i] = (float)(2 * (i % 500));
    }
}

static CUmodule load_from_memory(const char *text)
{
    static char info[LOG_SIZE], error[LOG_SIZE];
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {info, (void *)(size_t)LOG_SIZE, error, (void *)(size_t)LOG_SIZE};
    CUmodule module;
    CUresult r = cuModuleLoadDataEx(&module, text, 4, options, values);
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "JIT error log: %s\n", error);
    CHECK(r);
    sample_require((size_t)values[1] <= LOG_SIZE && (size_t)values[3] <= LOG_SIZE, "JIT log sizes within buffers");
    sample_require(memchr(info, '\0', LOG_SIZE) != NULL && memchr(error, '\0', LOG_SIZE) != NULL,
                   "JIT logs NUL-terminated");
    return module;
}

int main(int argc, char **argv)
{
    const char *dir = sample_ptx_dir(argc, argv);
    char *path = sample_path(dir, "vectoradd_kernel.ptx");

    CUdevice device;
    CUcontext context;
    int count = 0;
    CHECK(cuInit(0));
    CHECK(cuDeviceGetCount(&count));
    sample_require(count > 0, "at least one CUDA device");
    CHECK(cuDeviceGet(&device, 0));
    CHECK(cuCtxCreate(&context, NULL, 0, device));

    /* The same PTX, once from the file and once from memory. */
    CUmodule from_file, from_memory;
    CUfunction add, add_scaled, empty;
    size_t len;
    char *text = sample_read_file(path, &len);
    CHECK(cuModuleLoad(&from_file, path));
    from_memory = load_from_memory(text);
    CHECK(cuModuleGetFunction(&add, from_file, "_Z9vectorAddPKfS0_Pfi"));
    CHECK(cuModuleGetFunction(&add_scaled, from_memory, "vectorAddScaled"));
    CHECK(cuModuleGetFunction(&empty, from_memory, "emptyKernel"));

    size_t bytes = N * sizeof(float);
    float *h_a = malloc(bytes), *h_b = malloc(bytes), *h_c = malloc(bytes);
    sample_require(h_a && h_b && h_c, "host memory");
    fill_inputs(h_a, h_b);
    CUdeviceptr d_a, d_b, d_c;
    CHECK(cuMemAlloc(&d_a, bytes));
    CHECK(cuMemAlloc(&d_b, bytes));
    CHECK(cuMemAlloc(&d_c, bytes));
    CHECK(cuMemcpyHtoD(d_a, h_a, bytes));
    CHECK(cuMemcpyHtoD(d_b, h_b, bytes));
    int n = N;
    unsigned int blocks = (N + THREADS - 1) / THREADS;

    /* 1: arguments through kernelParams. */
    void *params[] = {&d_a, &d_b, &d_c, &n};
    CHECK(cuLaunchKernel(add, blocks, 1, 1, THREADS, 1, 1, 0, NULL, params, NULL));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(h_c, d_c, bytes));
    for (int i = 0; i < N; i++)
        sample_require(h_c[i] == h_a[i] + h_b[i], "vectorAdd (kernelParams) result");
    printf("vectorAdd with kernelParams: PASSED\n");

    /* 2: arguments packed into one buffer at their alignment: three pointers, an int, then the float4 at the
     * next multiple of 16 (offset 32), on a stream of its own. */
    CHECK(cuMemsetD8(d_c, 0, bytes));
    _Static_assert(sizeof(float4_arg) == 16, "float4 layout");
    float4_arg k = {0.5f, 0.25f, 1.0f, 2.0f};
    alignas(16) unsigned char packed[64];
    size_t offset = 0;
    offset = pack(packed, offset, &d_a, sizeof d_a, alignof(CUdeviceptr));
    offset = pack(packed, offset, &d_b, sizeof d_b, alignof(CUdeviceptr));
    offset = pack(packed, offset, &d_c, sizeof d_c, alignof(CUdeviceptr));
    offset = pack(packed, offset, &n, sizeof n, alignof(int));
    size_t k_offset = ALIGN_UP(offset, alignof(float4_arg));
    offset = pack(packed, offset, &k, sizeof k, alignof(float4_arg));
    size_t driver_offset = 0, driver_size = 0;
    CHECK(cuFuncGetParamInfo(add_scaled, 4, &driver_offset, &driver_size));
    sample_require(driver_offset == k_offset && k_offset == 32 && driver_size == sizeof k,
                   "float4 argument at offset 32, as the driver lays it out");
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &offset,
                     CU_LAUNCH_PARAM_END};
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuLaunchKernel(add_scaled, blocks, 1, 1, THREADS, 1, 1, 0, stream, NULL, extra));
    CHECK(cuMemcpyDtoHAsync(h_c, d_c, bytes, stream));
    CHECK(cuStreamSynchronize(stream));
    for (int i = 0; i < N; i++)
        sample_require(h_c[i] == (k.x * h_a[i] + k.y * h_b[i] + k.z) * k.w, "vectorAddScaled (extra) result");
    printf("vectorAddScaled with extra and a float4 argument: PASSED\n");

    /* 3: a kernel without parameters. */
    CHECK(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL));
    CHECK(cuStreamSynchronize(stream));
    CHECK(cuStreamDestroy(stream));

    CHECK(cuMemFree(d_a));
    CHECK(cuMemFree(d_b));
    CHECK(cuMemFree(d_c));
    CHECK(cuModuleUnload(from_file));
    CHECK(cuModuleUnload(from_memory));
    CHECK(cuCtxDestroy(context));
    free(h_a);
    free(h_b);
    free(h_c);
    free(text);
    free(path);
    printf("vectoradd_drv: PASSED\n");
    return 0;
}
