/* Decoders of copies and sets: bytes, both ends (address, memory kind, device), extents, stream.
 *
 * The function's name gives an end's kind where it says (HtoD: host to device).  Host ends, unified
 * addresses and the devices of device ends (a copy between two devices is Peer-to-Peer, and keeps both
 * ordinals) come from the allocations the tracer saw (mem_map.h), without a driver call; a host end it never
 * saw pinned is pageable.  A unified address it never saw allocated (pageable host memory, or memory of a
 * route the map does not follow: virtual memory, IPC, graph allocations) is classified by one
 * cuPointerGetAttributes call, which reports a pageable host pointer as "not a CUDA pointer" instead of
 * failing, so it leaves no error behind: pageable host, pinned host, device or managed.  A device end it
 * never saw keeps device -1 (no question per copy). */
#include "config.h"

#include "preload/decode.h"
#include "preload/interpose.h"
#include "preload/mem_map.h"

#include <string.h>

/* Kind (and device ordinal, -1 if none) of the memory at `p`, asked of the driver; CT_MEM_UNKNOWN if it
 * cannot tell. */
static enum ct_mem_kind pointer_kind(uint64_t p, int32_t *device)
{
    CT_PFN_cuPointerGetAttributes get = CT_DRIVER(cuPointerGetAttributes);
    CUpointer_attribute attrs[3] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    unsigned int type = 0, managed = 0;
    int ordinal = -1;
    void *data[3] = {&type, &managed, &ordinal};
    *device = -1;
    if (!get)
        return CT_MEM_UNKNOWN;
    ct_guard++;
    CUresult r = get(3, attrs, data, (CUdeviceptr)p);
    ct_guard--;
    if (r != CUDA_SUCCESS)
        return CT_MEM_UNKNOWN;
    if (managed || type == CU_MEMORYTYPE_DEVICE)
        *device = ordinal;
    if (managed)
        return CT_MEM_MANAGED;
    switch (type) {
    case 0: return CT_MEM_HOST; /* not known to CUDA: pageable */
    case CU_MEMORYTYPE_HOST: return CT_MEM_PINNED;
    case CU_MEMORYTYPE_DEVICE: return CT_MEM_DEVICE;
    case CU_MEMORYTYPE_ARRAY: return CT_MEM_ARRAY;
    default: return CT_MEM_UNKNOWN;
    }
}

/* Kind (and device ordinal, -1 if none) of the memory at `p`: from the map where the tracer saw it
 * allocated, else from the driver. */
static enum ct_mem_kind kind_of(uint64_t p, int32_t *device)
{
    enum ct_mem_kind k;
    return ct_mem_map_lookup(p, &k, device) == 1 ? k : pointer_kind(p, device);
}

/* An end the name calls host memory: pinned or managed where the tracer saw it allocated (or registered),
 * else pageable, without asking the driver: every way to pin host memory passes through the map's hooks.
 * Only when the map cannot tell (mem_map.h) does the driver answer. */
static enum ct_mem_kind host_kind(const void *p)
{
    int32_t device;
    enum ct_mem_kind k;
    if (ct_mem_map_lookup((uintptr_t)p, &k, &device) < 0)
        k = pointer_kind((uintptr_t)p, &device);
    return k == CT_MEM_PINNED || k == CT_MEM_MANAGED ? k : CT_MEM_HOST;
}

static void copy(struct ct_pl_copy *pl, uint64_t bytes, uint32_t flags, CUstream stream)
{
    memset(pl, 0, sizeof *pl);
    pl->bytes = bytes;
    pl->flags = flags;
    pl->stream = (uint64_t)(uintptr_t)stream;
    pl->src_device = pl->dst_device = -1;
}

static void ends(struct ct_pl_copy *pl, uint64_t src, enum ct_mem_kind src_kind, uint64_t dst, enum ct_mem_kind dst_kind)
{
    pl->src = src;
    pl->src_kind = (uint16_t)src_kind;
    pl->dst = dst;
    pl->dst_kind = (uint16_t)dst_kind;
}

/* A copy between device memory of two devices is a peer copy whatever the call (as CUPTI's and nsys's
 * Peer-to-Peer): it keeps both ordinals.  Any other copy keeps none. */
static void peer_if_two_devices(struct ct_pl_copy *pl)
{
    if (!(pl->flags & CT_COPY_PEER) && pl->src_kind == CT_MEM_DEVICE && pl->dst_kind == CT_MEM_DEVICE &&
        pl->src_device >= 0 && pl->dst_device >= 0 && pl->src_device != pl->dst_device)
        pl->flags |= CT_COPY_PEER;
    if (!(pl->flags & CT_COPY_PEER))
        pl->src_device = pl->dst_device = -1;
}

/* Both ends classified by their addresses (unified addressing, peer copies), with their devices. */
static void queried_ends(struct ct_pl_copy *pl, uint64_t src, uint64_t dst)
{
    enum ct_mem_kind sk = kind_of(src, &pl->src_device), dk = kind_of(dst, &pl->dst_device);
    ends(pl, src, sk, dst, dk);
    peer_if_two_devices(pl);
}

/* Both ends device memory, as the name says; their devices from the map only.  An end it never saw
 * allocated (virtual-memory mappings such as PyTorch's expandable segments, IPC, graph allocations) keeps
 * device -1, so the copy is not taken for a peer copy: asking the driver would cost every such copy two
 * calls. */
static void device_ends(struct ct_pl_copy *pl, uint64_t src, uint64_t dst)
{
    enum ct_mem_kind k;
    ct_mem_map_lookup(src, &k, &pl->src_device); /* device -1 where it finds none */
    ct_mem_map_lookup(dst, &k, &pl->dst_device);
    ends(pl, src, CT_MEM_DEVICE, dst, CT_MEM_DEVICE);
    peer_if_two_devices(pl);
}

#define ADDR(p) ((uint64_t)(uintptr_t)(p))

/* ---- 1D copies -------------------------------------------------------------------------------------- */

void ct_dec_cuMemcpy(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    queried_ends(pl, src, dst);
}

void ct_dec_cuMemcpyAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                          CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_ASYNC, hStream);
    queried_ends(pl, src, dst);
}

void ct_dec_cuMemcpyHtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, const void *srcHost,
                         size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, ADDR(srcHost), host_kind(srcHost), dstDevice, CT_MEM_DEVICE);
}

void ct_dec_cuMemcpyHtoDAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, const void *srcHost,
                              size_t ByteCount, CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_ASYNC, hStream);
    ends(pl, ADDR(srcHost), host_kind(srcHost), dstDevice, CT_MEM_DEVICE);
}

void ct_dec_cuMemcpyDtoH(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, srcDevice, CT_MEM_DEVICE, ADDR(dstHost), host_kind(dstHost));
}

void ct_dec_cuMemcpyDtoHAsync(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_ASYNC, hStream);
    ends(pl, srcDevice, CT_MEM_DEVICE, ADDR(dstHost), host_kind(dstHost));
}

void ct_dec_cuMemcpyDtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                         size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    device_ends(pl, srcDevice, dstDevice);
}

void ct_dec_cuMemcpyDtoDAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                              size_t ByteCount, CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_ASYNC, hStream);
    device_ends(pl, srcDevice, dstDevice);
}

void ct_dec_cuMemcpyDtoA(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                         size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, srcDevice, CT_MEM_DEVICE, ADDR(dstArray), CT_MEM_ARRAY);
}

void ct_dec_cuMemcpyAtoD(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                         size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, ADDR(srcArray), CT_MEM_ARRAY, dstDevice, CT_MEM_DEVICE);
}

void ct_dec_cuMemcpyHtoA(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset, const void *srcHost,
                         size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, ADDR(srcHost), host_kind(srcHost), ADDR(dstArray), CT_MEM_ARRAY);
}

void ct_dec_cuMemcpyHtoAAsync(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset,
                              const void *srcHost, size_t ByteCount, CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_ASYNC, hStream);
    ends(pl, ADDR(srcHost), host_kind(srcHost), ADDR(dstArray), CT_MEM_ARRAY);
}

void ct_dec_cuMemcpyAtoH(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUarray srcArray, size_t srcOffset,
                         size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, ADDR(srcArray), CT_MEM_ARRAY, ADDR(dstHost), host_kind(dstHost));
}

void ct_dec_cuMemcpyAtoHAsync(struct ct_pl_copy *pl, CUresult r, void *dstHost, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount, CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_ASYNC, hStream);
    ends(pl, ADDR(srcArray), CT_MEM_ARRAY, ADDR(dstHost), host_kind(dstHost));
}

void ct_dec_cuMemcpyAtoA(struct ct_pl_copy *pl, CUresult r, CUarray dstArray, size_t dstOffset, CUarray srcArray,
                         size_t srcOffset, size_t ByteCount)
{
    copy(pl, ByteCount, 0, NULL);
    ends(pl, ADDR(srcArray), CT_MEM_ARRAY, ADDR(dstArray), CT_MEM_ARRAY);
}

void ct_dec_cuMemcpyPeer(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUcontext dstContext,
                         CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
{
    copy(pl, ByteCount, CT_COPY_PEER, NULL);
    queried_ends(pl, srcDevice, dstDevice);
}

void ct_dec_cuMemcpyPeerAsync(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, CUcontext dstContext,
                              CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    copy(pl, ByteCount, CT_COPY_PEER | CT_COPY_ASYNC, hStream);
    queried_ends(pl, srcDevice, dstDevice);
}

/* ---- 2D and 3D copies ------------------------------------------------------------------------------- */

/* One end of a CUDA_MEMCPY2D/3D(_PEER): the address its memory type selects, and that memory's kind. */
static void end_of(unsigned type, const void *host, uint64_t device, CUarray array, uint64_t *addr,
                   uint16_t *kind, int32_t *dev)
{
    int32_t ordinal = -1;
    switch (type) {
    case CU_MEMORYTYPE_HOST: *addr = ADDR(host); *kind = (uint16_t)host_kind(host); break;
    case CU_MEMORYTYPE_DEVICE:
        *addr = device;
        *kind = CT_MEM_DEVICE;
        if (dev)
            kind_of(device, &ordinal);
        break;
    case CU_MEMORYTYPE_ARRAY: *addr = ADDR(array); *kind = CT_MEM_ARRAY; break;
    case CU_MEMORYTYPE_UNIFIED:
        *addr = device;
        *kind = (uint16_t)kind_of(device, &ordinal);
        break;
    default: *addr = 0; *kind = CT_MEM_UNKNOWN; break;
    }
    if (dev)
        *dev = ordinal;
}

#define COPY_ENDS(pl, p, peer)                                                                               \
    do {                                                                                                   \
        end_of((p)->srcMemoryType, (p)->srcHost, (p)->srcDevice, (p)->srcArray, &(pl)->src, &(pl)->src_kind, \
               (peer) ? &(pl)->src_device : NULL);                                                         \
        end_of((p)->dstMemoryType, (p)->dstHost, (p)->dstDevice, (p)->dstArray, &(pl)->dst, &(pl)->dst_kind, \
               (peer) ? &(pl)->dst_device : NULL);                                                         \
    } while (0)

/* Both the current and the legacy (_v1) structs have the same field names. */
#define COPY_2D(pl, p, flags, stream)                                                                        \
    do {                                                                                                   \
        copy(pl, 0, (flags) | CT_COPY_2D, stream);                                                          \
        if (p) {                                                                                           \
            (pl)->width = (p)->WidthInBytes;                                                                \
            (pl)->height = (p)->Height;                                                                     \
            (pl)->bytes = (pl)->width * (pl)->height;                                                       \
            COPY_ENDS(pl, p, 0);                                                                           \
        }                                                                                                  \
    } while (0)
#define COPY_3D(pl, p, flags, stream, peer)                                                                  \
    do {                                                                                                   \
        copy(pl, 0, (flags) | CT_COPY_3D, stream);                                                          \
        if (p) {                                                                                           \
            (pl)->width = (p)->WidthInBytes;                                                                \
            (pl)->height = (p)->Height;                                                                     \
            (pl)->depth = (p)->Depth;                                                                       \
            (pl)->bytes = (pl)->width * (pl)->height * (pl)->depth;                                         \
            COPY_ENDS(pl, p, peer);                                                                        \
        }                                                                                                  \
    } while (0)

void ct_dec_cuMemcpy2D(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D *pCopy)
{
    COPY_2D(pl, pCopy, 0, NULL);
}

void ct_dec_cuMemcpy2D_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D_v1 *pCopy)
{
    COPY_2D(pl, pCopy, 0, NULL);
}

void ct_dec_cuMemcpy2DUnaligned(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D *pCopy)
{
    COPY_2D(pl, pCopy, 0, NULL);
}

void ct_dec_cuMemcpy2DUnaligned_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D_v1 *pCopy)
{
    COPY_2D(pl, pCopy, 0, NULL);
}

void ct_dec_cuMemcpy2DAsync(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    COPY_2D(pl, pCopy, CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemcpy2DAsync_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream)
{
    COPY_2D(pl, pCopy, CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemcpy3D(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D *pCopy)
{
    COPY_3D(pl, pCopy, 0, NULL, 0);
}

void ct_dec_cuMemcpy3D_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_v1 *pCopy)
{
    COPY_3D(pl, pCopy, 0, NULL, 0);
}

void ct_dec_cuMemcpy3DAsync(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    COPY_3D(pl, pCopy, CT_COPY_ASYNC, hStream, 0);
}

void ct_dec_cuMemcpy3DAsync_v2000(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream)
{
    COPY_3D(pl, pCopy, CT_COPY_ASYNC, hStream, 0);
}

void ct_dec_cuMemcpy3DPeer(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_PEER *pCopy)
{
    COPY_3D(pl, pCopy, CT_COPY_PEER, NULL, 1);
}

void ct_dec_cuMemcpy3DPeerAsync(struct ct_pl_copy *pl, CUresult r, const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    COPY_3D(pl, pCopy, CT_COPY_PEER | CT_COPY_ASYNC, hStream, 1);
}

/* ---- batches: total bytes, width = number of copies, ends of the first copy ------------------------- */

static void batch(struct ct_pl_copy *pl, CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                  CUstream stream)
{
    copy(pl, 0, CT_COPY_BATCH | CT_COPY_ASYNC, stream);
    pl->width = count;
    for (size_t i = 0; sizes && i < count; i++)
        pl->bytes += sizes[i];
    if (count && dsts && srcs)
        queried_ends(pl, srcs[0], dsts[0]);
}

void ct_dec_cuMemcpyBatchAsync_v12080(struct ct_pl_copy *pl, CUresult r, CUdeviceptr *dsts, CUdeviceptr *srcs,
                                      size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrIdxs,
                                      size_t numAttrs, size_t *failIdx, CUstream hStream)
{
    batch(pl, dsts, srcs, sizes, count, hStream);
}

void ct_dec_cuMemcpyBatchAsync_v13000(struct ct_pl_copy *pl, CUresult r, CUdeviceptr *dsts, CUdeviceptr *srcs,
                                      size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrIdxs,
                                      size_t numAttrs, CUstream hStream)
{
    batch(pl, dsts, srcs, sizes, count, hStream);
}

static void operand(const CUmemcpy3DOperand *o, uint64_t *addr, uint16_t *kind)
{
    if (o->type == CU_MEMCPY_OPERAND_TYPE_ARRAY) {
        *addr = ADDR(o->op.array.array);
        *kind = CT_MEM_ARRAY;
    } else {
        int32_t device;
        *addr = o->op.ptr.ptr;
        *kind = (uint16_t)kind_of(o->op.ptr.ptr, &device);
    }
}

/* Extents count elements of array operands and bytes of pointer operands. */
static void batch_3d(struct ct_pl_copy *pl, size_t numOps, const CUDA_MEMCPY3D_BATCH_OP *ops, CUstream stream)
{
    copy(pl, 0, CT_COPY_BATCH | CT_COPY_3D | CT_COPY_ASYNC, stream);
    pl->width = numOps;
    for (size_t i = 0; ops && i < numOps; i++)
        pl->bytes += (uint64_t)ops[i].extent.width * ops[i].extent.height * ops[i].extent.depth;
    if (numOps && ops) {
        operand(&ops[0].src, &pl->src, &pl->src_kind);
        operand(&ops[0].dst, &pl->dst, &pl->dst_kind);
    }
}

void ct_dec_cuMemcpy3DBatchAsync_v12080(struct ct_pl_copy *pl, CUresult r, size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                        size_t *failIdx, unsigned long long flags, CUstream hStream)
{
    batch_3d(pl, numOps, opList, hStream);
}

void ct_dec_cuMemcpy3DBatchAsync_v13000(struct ct_pl_copy *pl, CUresult r, size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                        unsigned long long flags, CUstream hStream)
{
    batch_3d(pl, numOps, opList, hStream);
}

/* ---- sets: N elements of 1, 2 or 4 bytes; 2D: Width elements by Height rows ----------------------------- */

static void set(struct ct_pl_copy *pl, CUdeviceptr dst, unsigned elem, size_t width, size_t height, uint32_t flags,
                CUstream stream)
{
    int two_d = (flags & CT_COPY_2D) != 0;
    copy(pl, (uint64_t)width * elem * (two_d ? height : 1), flags | CT_COPY_SET, stream);
    ends(pl, 0, CT_MEM_UNKNOWN, dst, CT_MEM_DEVICE);
    if (two_d) {
        pl->width = (uint64_t)width * elem;
        pl->height = height;
    }
}

void ct_dec_cuMemsetD8(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    set(pl, dstDevice, 1, N, 0, 0, NULL);
}

void ct_dec_cuMemsetD16(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    set(pl, dstDevice, 2, N, 0, 0, NULL);
}

void ct_dec_cuMemsetD32(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    set(pl, dstDevice, 4, N, 0, 0, NULL);
}

void ct_dec_cuMemsetD8Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned char uc, size_t N,
                            CUstream hStream)
{
    set(pl, dstDevice, 1, N, 0, CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemsetD16Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned short us, size_t N,
                             CUstream hStream)
{
    set(pl, dstDevice, 2, N, 0, CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemsetD32Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, unsigned int ui, size_t N,
                             CUstream hStream)
{
    set(pl, dstDevice, 4, N, 0, CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemsetD2D8(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                         size_t Width, size_t Height)
{
    set(pl, dstDevice, 1, Width, Height, CT_COPY_2D, NULL);
}

void ct_dec_cuMemsetD2D16(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                          unsigned short us, size_t Width, size_t Height)
{
    set(pl, dstDevice, 2, Width, Height, CT_COPY_2D, NULL);
}

void ct_dec_cuMemsetD2D32(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                          size_t Width, size_t Height)
{
    set(pl, dstDevice, 4, Width, Height, CT_COPY_2D, NULL);
}

void ct_dec_cuMemsetD2D8Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                              unsigned char uc, size_t Width, size_t Height, CUstream hStream)
{
    set(pl, dstDevice, 1, Width, Height, CT_COPY_2D | CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemsetD2D16Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                               unsigned short us, size_t Width, size_t Height, CUstream hStream)
{
    set(pl, dstDevice, 2, Width, Height, CT_COPY_2D | CT_COPY_ASYNC, hStream);
}

void ct_dec_cuMemsetD2D32Async(struct ct_pl_copy *pl, CUresult r, CUdeviceptr dstDevice, size_t dstPitch,
                               unsigned int ui, size_t Width, size_t Height, CUstream hStream)
{
    set(pl, dstDevice, 4, Width, Height, CT_COPY_2D | CT_COPY_ASYNC, hStream);
}
