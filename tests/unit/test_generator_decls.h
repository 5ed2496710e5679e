/* Decoders and hooks for tests/unit/test_generator.h: a per-variant key (cuMemAlloc_v2000), a per-function
 * key (cuMemcpyHtoD, also serving its _ptds variant), an inline launch decoder, a hook. */
#include "cudatrace/format.h"
void ct_dec_cuMemAlloc(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize);
void ct_dec_cuMemAlloc_v2000(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr_v1 *dptr, unsigned int bytesize);
void ct_dec_cuMemcpyHtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, const void *srcHost,
                         size_t ByteCount);
/* Launch decoders are inline definitions (as in src/preload/decode_launch.h). */
static inline __attribute__((always_inline)) void
ct_dec_cuLaunchHostFunc(struct ct_pl_launch *pl, CUresult r, CUstream hStream, CUhostFn fn, void *userData)
{
    (void)pl, (void)r, (void)hStream, (void)fn, (void)userData;
}
void ct_hook_cuInit(CUresult r, unsigned int Flags);
