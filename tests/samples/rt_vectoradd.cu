// Runtime-API vector add (the CUDA samples' vectorAdd): three cudaMalloc of 200000 bytes, two H2D copies, one
// launch of `vectorAdd` with grid 196 and block 256, one D2H copy, three cudaFree.  Built three ways by
// tests/samples/gpu.mk (static cudart, -cudart shared, --default-stream per-thread); tests/gpu/expect/
// asserts exactly these calls, so change both together.  stdout is the same traced and untraced.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_vectoradd: %s failed: %s\n", #call, cudaGetErrorString(err_));           \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

__global__ void vectorAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    const int n = 50000;
    const size_t bytes = n * sizeof(float);  // 200000
    const int block = 256;
    const int grid = (n + block - 1) / block;  // 196

    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    if (!ha || !hb || !hc) {
        fprintf(stderr, "rt_vectoradd: out of host memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {  // small integers: every sum is exact in float
        ha[i] = (float)i;
        hb[i] = (float)(2 * i);
    }

    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
    vectorAdd<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));

    long long sum = 0;
    for (int i = 0; i < n; i++) {
        if (hc[i] != (float)(3 * i)) {
            fprintf(stderr, "rt_vectoradd: c[%d] = %g, expected %d\n", i, hc[i], 3 * i);
            return 1;
        }
        sum += (long long)hc[i];
    }
    free(ha);
    free(hb);
    free(hc);
    printf("vectorAdd n=%d grid=%d block=%d sum=%lld: ok\n", n, grid, block, sum);
    return 0;
}
