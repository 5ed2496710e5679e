/* A driver-API program that makes N launches of an empty kernel and M (default N) cuCtxGetDevice calls, for
 * counting the tracer's instructions per call under callgrind (bench/run-hotpath).  Runs on the simulated
 * driver or a real one.  Usage: hotpath N [M] */
#include "config.h"

#include <cuda.h>
#include <stdlib.h>

#include "samples/drv_sample.h" /* CHECK: exit with the error named */

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000, m = argc > 2 ? atol(argv[2]) : n;
    struct sample_empty_kernel k;
    CUdevice dev;

    sample_empty_kernel_load(&k);
    for (long i = 0; i < n; i++)
        CHECK(cuLaunchKernel(k.fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    for (long i = 0; i < m; i++)
        CHECK(cuCtxGetDevice(&dev));
    CHECK(cuCtxSynchronize());
    sample_empty_kernel_done(&k);
    return 0;
}
