/* Linked with libcapturector, whose constructor made a context current and opened a capture range: three
 * synchronizes inside it, cuProfilerStop, one more outside (tests/integration/capture.sh). */
#include <cuda.h>
#include <cudaProfiler.h>
#include <stdio.h>

int capturector_ready(void); /* libcapturector */

int main(void)
{
    CUresult r = capturector_ready() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;

    for (int i = 0; i < 3 && r == CUDA_SUCCESS; i++)
        r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS)
        r = cuProfilerStop();
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    printf("capture-early: %d\n", (int)r);
    return r == CUDA_SUCCESS ? 0 : 1;
}
