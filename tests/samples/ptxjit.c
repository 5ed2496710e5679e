/* ptxJIT-style sample (driver API, linked with -lcuda): a kernel and the device function it calls, in two PTX
 * files, linked at run time (cuLinkCreate with wall-time and log options, cuLinkAddData, cuLinkAddFile,
 * cuLinkComplete), loaded with cuModuleLoadData and launched with cuLaunchKernelEx on a stream, between two
 * events, in the device's primary context.
 * Usage: ptxjit [PTX_DIR]   (default: the executable's directory). Exit 0 and "PASSED" when every result is
 * right; 1 on a wrong result or any CUDA error. */
#include "config.h"

#include "drv_sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4099 /* not a multiple of the block: the kernel's bound check matters */
#define THREADS 128
#define LOG_SIZE 8192

enum { OPT_WALL, OPT_INFO, OPT_INFO_SIZE, OPT_ERROR, OPT_ERROR_SIZE, OPT_VERBOSE, NOPTS };

int main(int argc, char **argv)
{
    const char *dir = sample_ptx_dir(argc, argv);
    char *kernel_path = sample_path(dir, "ptxjit_kernel.ptx");
    char *device_path = sample_path(dir, "ptxjit_device.ptx");

    CUdevice device;
    CUcontext context;
    sample_primary_context(&device, &context);

    /* Link: the kernel from memory, the device function from its file. */
    static char info[LOG_SIZE], error[LOG_SIZE];
    CUjit_option options[NOPTS] = {CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                                   CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                                   CU_JIT_LOG_VERBOSE};
    void *values[NOPTS] = {NULL, info, (void *)(size_t)LOG_SIZE, error, (void *)(size_t)LOG_SIZE, (void *)1};
    CUlinkState link;
    size_t len;
    char *kernel_text = sample_read_file(kernel_path, &len);
    CHECK(cuLinkCreate(NOPTS, options, values, &link));
    CUresult r = cuLinkAddData(link, CU_JIT_INPUT_PTX, kernel_text, len + 1, "ptxjit_kernel.ptx", 0, NULL, NULL);
    if (r == CUDA_SUCCESS)
        r = cuLinkAddFile(link, CU_JIT_INPUT_PTX, device_path, 0, NULL, NULL);
    void *cubin = NULL;
    size_t cubin_size = 0;
    if (r == CUDA_SUCCESS)
        r = cuLinkComplete(link, &cubin, &cubin_size);
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "linker error log: %s\n", error);
    CHECK(r);
    float wall_ms;
    memcpy(&wall_ms, &values[OPT_WALL], sizeof wall_ms); /* the driver overwrites the option value itself */
    sample_require(isfinite(wall_ms) && wall_ms >= 0, "linker wall time");
    sample_require((size_t)values[OPT_INFO_SIZE] <= LOG_SIZE && (size_t)values[OPT_ERROR_SIZE] <= LOG_SIZE,
                   "linker log sizes within buffers");
    sample_require(cubin != NULL && cubin_size > 0, "a linked image");

    CUmodule module;
    CUfunction kernel;
    const char *name = NULL;
    CHECK(cuModuleLoadData(&module, cubin));
    CHECK(cuLinkDestroy(link));
    CHECK(cuModuleGetFunction(&kernel, module, "ptxjit_vecAdd"));
    CHECK(cuFuncGetName(&name, kernel));
    sample_require(name && strcmp(name, "ptxjit_vecAdd") == 0, "cuFuncGetName gives the entry's name");

    size_t bytes = N * sizeof(float);
    float *h_a, *h_b, *h_c;
    CHECK(cuMemAllocHost((void **)&h_a, bytes));
    CHECK(cuMemAllocHost((void **)&h_b, bytes));
    CHECK(cuMemAllocHost((void **)&h_c, bytes));
    for (int i = 0; i < N; i++) {
        h_a[i] = (float)i;
        h_b[i] = (float)(3 * i + 1);
        h_c[i] = -1.0f;
    }
    CUdeviceptr d_a, d_b, d_c;
    CHECK(cuMemAlloc(&d_a, bytes));
    CHECK(cuMemAlloc(&d_b, bytes));
    CHECK(cuMemAlloc(&d_c, bytes));

    CUstream stream;
    CUevent start, stop;
    CHECK(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CHECK(cuMemcpyHtoDAsync(d_a, h_a, bytes, stream));
    CHECK(cuMemcpyHtoDAsync(d_b, h_b, bytes, stream));
    int n = N;
    void *params[] = {&d_a, &d_b, &d_c, &n};
    CUlaunchConfig config = {
        .gridDimX = (N + THREADS - 1) / THREADS, .gridDimY = 1, .gridDimZ = 1,
        .blockDimX = THREADS, .blockDimY = 1, .blockDimZ = 1,
        .sharedMemBytes = 0, .hStream = stream, .attrs = NULL, .numAttrs = 0,
    };
    CHECK(cuEventRecord(start, stream));
    CHECK(cuLaunchKernelEx(&config, kernel, params, NULL));
    CHECK(cuEventRecord(stop, stream));
    CHECK(cuMemcpyDtoHAsync(h_c, d_c, bytes, stream));
    CHECK(cuStreamSynchronize(stream));
    float kernel_ms = -1;
    CHECK(cuEventElapsedTime(&kernel_ms, start, stop));
    sample_require(kernel_ms >= 0, "event elapsed time");
    for (int i = 0; i < N; i++)
        sample_require(h_c[i] == h_a[i] + h_b[i], "ptxjit_vecAdd result");

    CHECK(cuEventDestroy(start));
    CHECK(cuEventDestroy(stop));
    CHECK(cuStreamDestroy(stream));
    CHECK(cuMemFree(d_a));
    CHECK(cuMemFree(d_b));
    CHECK(cuMemFree(d_c));
    CHECK(cuMemFreeHost(h_a));
    CHECK(cuMemFreeHost(h_b));
    CHECK(cuMemFreeHost(h_c));
    CHECK(cuModuleUnload(module));
    CHECK(cuCtxSetCurrent(NULL));
    CHECK(cuDevicePrimaryCtxRelease(device));
    free(kernel_text);
    free(kernel_path);
    free(device_path);
    printf("ptxjit: PASSED\n");
    return 0;
}
