/* A program that refers to cudaGetDriverEntryPointByVersion weakly and loads no runtime.  Untraced the
 * reference stays NULL; traced it binds to libcudatrace's export, which must answer with a CUDA error
 * (cudaErrorInitializationError), a NULL pointer and "symbol not found", never crash. */
#include "config.h"

#include <cuda_runtime_api.h>
#include <stdio.h>

extern __typeof__(cudaGetDriverEntryPointByVersion) cudaGetDriverEntryPointByVersion __attribute__((weak));

int main(void)
{
    if (!cudaGetDriverEntryPointByVersion) {
        printf("no cudaGetDriverEntryPointByVersion\n");
        return 0;
    }
    void *p = (void *)1;
    enum cudaDriverEntryPointQueryResult st = cudaDriverEntryPointSuccess;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuInit", &p, 12000, cudaEnableDefault, &st);
    printf("e=%d p=%s status=%d\n", (int)e, p ? "set" : "NULL", (int)st);
    return 0;
}
