/* Argument decoders: hand-written code a generated trampoline runs after the real call, while recording,
 * to fill the payload after the call record.  scripts/gen-wrappers.py reads this header: a function
 * `void ct_dec_<key>(struct ct_pl_<family> *pl, CUresult r, <parameters>)` decodes variant
 * <name>_v<version> when <key> is that, else every variant of function <key> (per-thread ones included);
 * the payload type gives the variants' family.  The compiler checks each call against these prototypes:
 * integer parameters here are at least as wide as in every variant they serve. */
#ifndef CT_PRELOAD_DECODE_H
#define CT_PRELOAD_DECODE_H

#include "cuda/api.h"

#include "cudatrace/format.h"

/* decode_alloc.c: the current context's device, or -1 (no context); cuCtxGetDevice changes nothing. */
int32_t ct_current_device(void);

/* decode_alloc.c: allocations */
void ct_dec_cuMemAlloc(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize);
void ct_dec_cuMemAlloc_v2000(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr_v1 *dptr, unsigned int bytesize);
void ct_dec_cuMemAllocPitch(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                            size_t Height, unsigned int ElementSizeBytes);
void ct_dec_cuMemAllocPitch_v2000(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr_v1 *dptr, unsigned int *pPitch,
                                  unsigned int WidthInBytes, unsigned int Height, unsigned int ElementSizeBytes);
void ct_dec_cuMemAllocManaged(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize,
                              unsigned int flags);
void ct_dec_cuMemAllocHost(struct ct_pl_alloc *pl, CUresult r, void **pp, size_t bytesize);
void ct_dec_cuMemHostAlloc(struct ct_pl_alloc *pl, CUresult r, void **pp, size_t bytesize, unsigned int Flags);
void ct_dec_cuMemAllocAsync(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
void ct_dec_cuMemAllocFromPoolAsync(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize,
                                    CUmemoryPool pool, CUstream hStream);
void ct_dec_cuMemCreate(struct ct_pl_alloc *pl, CUresult r, CUmemGenericAllocationHandle *handle, size_t size,
                        const CUmemAllocationProp *prop, unsigned long long flags);
void ct_dec_cuMemMap(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr ptr, size_t size, size_t offset,
                     CUmemGenericAllocationHandle handle, unsigned long long flags);

/* decode_alloc.c: frees */
void ct_dec_cuMemFree(struct ct_pl_free *pl, CUresult r, CUdeviceptr dptr);
void ct_dec_cuMemFreeHost(struct ct_pl_free *pl, CUresult r, void *p);
void ct_dec_cuMemFreeAsync(struct ct_pl_free *pl, CUresult r, CUdeviceptr dptr, CUstream hStream);
void ct_dec_cuMemRelease(struct ct_pl_free *pl, CUresult r, CUmemGenericAllocationHandle handle);
void ct_dec_cuMemUnmap(struct ct_pl_free *pl, CUresult r, CUdeviceptr ptr, size_t size);

/* Launches: decode_launch.h (inline, before the recorder's shortcut). */

/* decode_copy.c: 1D copies (direction from the name; unified ones resolved by pointer) */
void ct_dec_cuMemcpy(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
void ct_dec_cuMemcpyAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                          CUstream hStream);
void ct_dec_cuMemcpyHtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, const void *srcHost,
                         size_t ByteCount);
void ct_dec_cuMemcpyHtoDAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, const void *srcHost,
                              size_t ByteCount, CUstream hStream);
void ct_dec_cuMemcpyDtoH(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
void ct_dec_cuMemcpyDtoHAsync(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream);
void ct_dec_cuMemcpyDtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                         size_t ByteCount);
void ct_dec_cuMemcpyDtoDAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream);
void ct_dec_cuMemcpyDtoA(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                         size_t ByteCount);
void ct_dec_cuMemcpyAtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                         size_t ByteCount);
void ct_dec_cuMemcpyHtoA(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset, const void *srcHost,
                         size_t ByteCount);
void ct_dec_cuMemcpyHtoAAsync(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset,
                              const void *srcHost, size_t ByteCount, CUstream hStream);
void ct_dec_cuMemcpyAtoH(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUarray srcArray, size_t srcOffset,
                         size_t ByteCount);
void ct_dec_cuMemcpyAtoHAsync(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount, CUstream hStream);
void ct_dec_cuMemcpyAtoA(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset, CUarray srcArray,
                         size_t srcOffset, size_t ByteCount);
void ct_dec_cuMemcpyPeer(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUcontext dstContext,
                         CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
void ct_dec_cuMemcpyPeerAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUcontext dstContext,
                              CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);

/* decode_copy.c: 2D and 3D copies */
void ct_dec_cuMemcpy2D(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D *pCopy);
void ct_dec_cuMemcpy2D_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D_v1 *pCopy);
void ct_dec_cuMemcpy2DUnaligned(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D *pCopy);
void ct_dec_cuMemcpy2DUnaligned_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D_v1 *pCopy);
void ct_dec_cuMemcpy2DAsync(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D *pCopy, CUstream hStream);
void ct_dec_cuMemcpy2DAsync_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream);
void ct_dec_cuMemcpy3D(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D *pCopy);
void ct_dec_cuMemcpy3D_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_v1 *pCopy);
void ct_dec_cuMemcpy3DAsync(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D *pCopy, CUstream hStream);
void ct_dec_cuMemcpy3DAsync_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream);
void ct_dec_cuMemcpy3DPeer(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_PEER *pCopy);
void ct_dec_cuMemcpy3DPeerAsync(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);

/* decode_copy.c: batches (width = number of copies) */
void ct_dec_cuMemcpyBatchAsync_v12080(struct ct_pl_copy *pl, CUresult r, CUdeviceptr *dsts, CUdeviceptr *srcs,
                                      size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrIdxs,
                                      size_t numAttrs, size_t *failIdx, CUstream hStream);
void ct_dec_cuMemcpyBatchAsync_v13000(struct ct_pl_copy *pl, CUresult r, CUdeviceptr *dsts, CUdeviceptr *srcs,
                                      size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrIdxs,
                                      size_t numAttrs, CUstream hStream);
void ct_dec_cuMemcpy3DBatchAsync_v12080(struct ct_pl_copy *pl, CUresult r, size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                        size_t *failIdx, unsigned long long flags, CUstream hStream);
void ct_dec_cuMemcpy3DBatchAsync_v13000(struct ct_pl_copy *pl, CUresult r, size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                        unsigned long long flags, CUstream hStream);

/* decode_copy.c: sets */
void ct_dec_cuMemsetD8(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned char uc, size_t N);
void ct_dec_cuMemsetD16(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned short us, size_t N);
void ct_dec_cuMemsetD32(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned int ui, size_t N);
void ct_dec_cuMemsetD8Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned char uc, size_t N,
                            CUstream hStream);
void ct_dec_cuMemsetD16Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned short us, size_t N,
                             CUstream hStream);
void ct_dec_cuMemsetD32Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned int ui, size_t N,
                             CUstream hStream);
void ct_dec_cuMemsetD2D8(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                         size_t Width, size_t Height);
void ct_dec_cuMemsetD2D16(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                          unsigned short us, size_t Width, size_t Height);
void ct_dec_cuMemsetD2D32(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                          size_t Width, size_t Height);
void ct_dec_cuMemsetD2D8Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                              unsigned char uc, size_t Width, size_t Height, CUstream hStream);
void ct_dec_cuMemsetD2D16Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                               unsigned short us, size_t Width, size_t Height, CUstream hStream);
void ct_dec_cuMemsetD2D32Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                               unsigned int ui, size_t Width, size_t Height, CUstream hStream);

#endif
