/* Copies and sets: every direction is a host memmove, since device memory is host memory here. Device-side
 * ranges are checked against the allocations, so a bad pointer is CUDA_ERROR_INVALID_VALUE, not a crash.
 * The work goes through sim_enqueue: it lasts bytes / SIM_COPY_BYTES_PER_NS on the stream's timeline, and the
 * synchronous forms (`wait`) return once it has ended; on a capturing stream it becomes a graph node. */
#include "config.h"

#include "sim.h"

#include <string.h>

/* [p, p+n) must lie in one allocation the device can reach (any kind, with unified addressing). */
static CUresult device_range(uintptr_t p, size_t n)
{
    if (n == 0)
        return CUDA_SUCCESS;
    sim_lock();
    bool ok = sim_mem_find(p, n) != NULL;
    sim_unlock();
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

enum side { HOST, DEVICE, ANY };

static CUresult copy(uintptr_t dst, enum side dside, uintptr_t src, enum side sside, size_t n, CUstream stream,
                     bool wait)
{
    CUresult r = sim_stream_check(stream); /* also: initialised, with a current context */
    if (r != CUDA_SUCCESS)
        return r;
    if (n == 0)
        return CUDA_SUCCESS;
    if (!dst || !src)
        return CUDA_ERROR_INVALID_VALUE;
    if (dside == DEVICE && (r = device_range(dst, n)) != CUDA_SUCCESS)
        return r;
    if (sside == DEVICE && (r = device_range(src, n)) != CUDA_SUCCESS)
        return r;
    struct sim_work w = {.kind = SIM_WORK_COPY, .ns = sim_copy_ns(n), .u.copy = {dst, src, 0, 0, n, 1}};
    return sim_enqueue(stream, &w, wait);
}

#define H(p) ((uintptr_t)(p))

CUresult cuMemcpyHtoD(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount)
{
    return copy(dstDevice, DEVICE, H(srcHost), HOST, ByteCount, NULL, true);
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return copy(dstDevice, DEVICE, H(srcHost), HOST, ByteCount, NULL, true);
}

CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return copy(dstDevice, DEVICE, H(srcHost), HOST, ByteCount, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
    return copy(H(dstHost), HOST, srcDevice, DEVICE, ByteCount, NULL, true);
}

CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy(H(dstHost), HOST, srcDevice, DEVICE, ByteCount, NULL, true);
}

CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy(H(dstHost), HOST, srcDevice, DEVICE, ByteCount, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyDtoD(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
    return copy(dstDevice, DEVICE, srcDevice, DEVICE, ByteCount, NULL, true);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy(dstDevice, DEVICE, srcDevice, DEVICE, ByteCount, NULL, true);
}

CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy(dstDevice, DEVICE, srcDevice, DEVICE, ByteCount, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount, CUstream hStream)
{
    return copy(dstDevice, DEVICE, H(srcHost), HOST, ByteCount, hStream, false);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    return copy(dstDevice, DEVICE, H(srcHost), HOST, ByteCount, hStream, false);
}

CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    return copy(dstDevice, DEVICE, H(srcHost), HOST, ByteCount, SIM_PTSZ(hStream), false);
}

CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream)
{
    return copy(H(dstHost), HOST, srcDevice, DEVICE, ByteCount, hStream, false);
}

CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return copy(H(dstHost), HOST, srcDevice, DEVICE, ByteCount, hStream, false);
}

CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return copy(H(dstHost), HOST, srcDevice, DEVICE, ByteCount, SIM_PTSZ(hStream), false);
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount,
                           CUstream hStream)
{
    return copy(dstDevice, DEVICE, srcDevice, DEVICE, ByteCount, hStream, false);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return copy(dstDevice, DEVICE, srcDevice, DEVICE, ByteCount, hStream, false);
}

CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream)
{
    return copy(dstDevice, DEVICE, srcDevice, DEVICE, ByteCount, SIM_PTSZ(hStream), false);
}

/* Unified copies: either side may be any host or device address. */
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return copy(dst, ANY, src, ANY, ByteCount, NULL, true);
}

CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return copy(dst, ANY, src, ANY, ByteCount, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    return copy(dst, ANY, src, ANY, ByteCount, hStream, false);
}

CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    return copy(dst, ANY, src, ANY, ByteCount, SIM_PTSZ(hStream), false);
}

static CUresult peer(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src, CUcontext srcCtx, size_t n,
                     CUstream stream, bool wait)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(dstCtx, SIM_CTX) || !sim_obj_live(srcCtx, SIM_CTX))
        return CUDA_ERROR_INVALID_CONTEXT;
    return copy(dst, DEVICE, src, DEVICE, n, stream, wait);
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                      size_t ByteCount)
{
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, NULL, true);
}

CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                           CUcontext srcContext, size_t ByteCount)
{
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                           CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream, false);
}

CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, SIM_PTSZ(hStream), false);
}

/* ---- 2D copies ---- */

/* One side of a 2D or 3D copy: its first byte, checked against the allocations for device memory. Rows are
 * `pitch` bytes apart, slices `pitch * slice_height`; a 2D copy is one slice (z 0, depth 1). Arrays are not
 * simulated. */
struct end3d {
    CUmemorytype type;
    const void *host;
    CUdeviceptr dev;
    size_t x, y, z, pitch, slice_height;
};

static CUresult side_first(const struct end3d *s, size_t width, size_t height, size_t depth, uintptr_t *out)
{
    uintptr_t base;
    switch (s->type) {
    case CU_MEMORYTYPE_HOST: base = H(s->host); break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: base = s->dev; break;
    case CU_MEMORYTYPE_ARRAY: return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (!base || (height > 1 && s->pitch < width) || (depth > 1 && s->slice_height < height))
        return CUDA_ERROR_INVALID_VALUE;
    size_t slice = s->pitch * s->slice_height;
    *out = base + s->x + s->y * s->pitch + s->z * slice;
    if (s->type == CU_MEMORYTYPE_DEVICE && width > 0 && height > 0 && depth > 0)
        return device_range(*out, (depth - 1) * slice + (height - 1) * s->pitch + width);
    return CUDA_SUCCESS;
}

/* A checked copy of depth slices of height rows of width bytes. */
static CUresult copy_3d(const struct end3d *src, const struct end3d *dst, size_t width, size_t height, size_t depth,
                        CUstream stream, bool wait)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    uintptr_t s, d;
    if ((r = side_first(src, width, height, depth, &s)) != CUDA_SUCCESS ||
        (r = side_first(dst, width, height, depth, &d)) != CUDA_SUCCESS)
        return r;
    if (width == 0 || height == 0 || depth == 0)
        return CUDA_SUCCESS;
    struct sim_work w = {.kind = SIM_WORK_COPY,
                         .ns = sim_copy_ns(width * height * depth),
                         .u.copy = {d, s, dst->pitch, src->pitch, width, height, depth,
                                    dst->pitch * dst->slice_height, src->pitch * src->slice_height}};
    return sim_enqueue(stream, &w, wait);
}

static CUresult copy_2d(const CUDA_MEMCPY2D *c, CUstream stream, bool wait)
{
    if (!c) {
        CUresult r = sim_stream_check(stream);
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    }
    struct end3d src = {c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, 0, c->srcPitch, 0};
    struct end3d dst = {c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, 0, c->dstPitch, 0};
    return copy_3d(&src, &dst, c->WidthInBytes, c->Height, 1, stream, wait);
}

/* The 2.0 descriptor has 32-bit fields and a 32-bit device pointer. */
static CUresult copy_2d_v1(const CUDA_MEMCPY2D_v1 *c, CUstream stream, bool wait)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_MEMCPY2D w = {
        .srcXInBytes = c->srcXInBytes, .srcY = c->srcY, .srcMemoryType = c->srcMemoryType,
        .srcHost = c->srcHost, .srcDevice = c->srcDevice, .srcArray = c->srcArray, .srcPitch = c->srcPitch,
        .dstXInBytes = c->dstXInBytes, .dstY = c->dstY, .dstMemoryType = c->dstMemoryType,
        .dstHost = c->dstHost, .dstDevice = c->dstDevice, .dstArray = c->dstArray, .dstPitch = c->dstPitch,
        .WidthInBytes = c->WidthInBytes, .Height = c->Height,
    };
    return copy_2d(&w, stream, wait);
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy)
{
    return copy_2d_v1(pCopy, NULL, true);
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, NULL, true);
}

CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy)
{
    return copy_2d_v1(pCopy, NULL, true);
}

CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, NULL, true);
}

CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream)
{
    return copy_2d_v1(pCopy, hStream, false);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d(pCopy, hStream, false);
}

CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d(pCopy, SIM_PTSZ(hStream), false);
}

/* ---- sets: height rows of width elements of `size` bytes, rows `pitch` bytes apart ---- */

static CUresult set_2d(CUdeviceptr dst, size_t pitch, unsigned int value, size_t size, size_t width,
                       size_t height, CUstream stream, bool wait)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    if (width == 0 || height == 0)
        return CUDA_SUCCESS;
    if (dst % size != 0 || pitch % size != 0 || (height > 1 && pitch < width * size))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = device_range(dst, (height - 1) * pitch + width * size)) != CUDA_SUCCESS)
        return r;
    struct sim_work w = {.kind = SIM_WORK_SET,
                         .ns = sim_copy_ns(width * height * size),
                         .u.set = {.dst = dst, .pitch = pitch, .width = width, .height = height, .size = size,
                                   .value = value}};
    return sim_enqueue(stream, &w, wait);
}

/* Each set exists as the 2.0 form (32-bit pointer and counts), _v2, _v2_ptds, and an async form with _ptsz. */
#define SIM_SET_1D(bits, T)                                                                                   \
    CUresult cuMemsetD##bits(CUdeviceptr_v1 dstDevice, T v, unsigned int N)                                  \
    {                                                                                                         \
        return set_2d(dstDevice, 0, v, sizeof(T), N, 1, NULL, true);                                          \
    }                                                                                                         \
    CUresult cuMemsetD##bits##_v2(CUdeviceptr dstDevice, T v, size_t N)                                       \
    {                                                                                                         \
        return set_2d(dstDevice, 0, v, sizeof(T), N, 1, NULL, true);                                          \
    }                                                                                                         \
    CUresult cuMemsetD##bits##_v2_ptds(CUdeviceptr dstDevice, T v, size_t N)                                  \
    {                                                                                                         \
        return set_2d(dstDevice, 0, v, sizeof(T), N, 1, CU_STREAM_PER_THREAD, true);                          \
    }                                                                                                         \
    CUresult cuMemsetD##bits##Async(CUdeviceptr dstDevice, T v, size_t N, CUstream hStream)                   \
    {                                                                                                         \
        return set_2d(dstDevice, 0, v, sizeof(T), N, 1, hStream, false);                                      \
    }                                                                                                         \
    CUresult cuMemsetD##bits##Async_ptsz(CUdeviceptr dstDevice, T v, size_t N, CUstream hStream)              \
    {                                                                                                         \
        return set_2d(dstDevice, 0, v, sizeof(T), N, 1, SIM_PTSZ(hStream), false);                            \
    }

#define SIM_SET_2D(bits, T)                                                                                   \
    CUresult cuMemsetD2D##bits(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, T v, unsigned int Width,     \
                               unsigned int Height)                                                           \
    {                                                                                                         \
        return set_2d(dstDevice, dstPitch, v, sizeof(T), Width, Height, NULL, true);                          \
    }                                                                                                         \
    CUresult cuMemsetD2D##bits##_v2(CUdeviceptr dstDevice, size_t dstPitch, T v, size_t Width, size_t Height) \
    {                                                                                                         \
        return set_2d(dstDevice, dstPitch, v, sizeof(T), Width, Height, NULL, true);                          \
    }                                                                                                         \
    CUresult cuMemsetD2D##bits##_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, T v, size_t Width,           \
                                         size_t Height)                                                       \
    {                                                                                                         \
        return set_2d(dstDevice, dstPitch, v, sizeof(T), Width, Height, CU_STREAM_PER_THREAD, true);          \
    }                                                                                                         \
    CUresult cuMemsetD2D##bits##Async(CUdeviceptr dstDevice, size_t dstPitch, T v, size_t Width,              \
                                      size_t Height, CUstream hStream)                                        \
    {                                                                                                         \
        return set_2d(dstDevice, dstPitch, v, sizeof(T), Width, Height, hStream, false);                      \
    }                                                                                                         \
    CUresult cuMemsetD2D##bits##Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, T v, size_t Width,         \
                                           size_t Height, CUstream hStream)                                   \
    {                                                                                                         \
        return set_2d(dstDevice, dstPitch, v, sizeof(T), Width, Height, SIM_PTSZ(hStream), false);            \
    }

SIM_SET_1D(8, unsigned char)
SIM_SET_1D(16, unsigned short)
SIM_SET_1D(32, unsigned int)
SIM_SET_2D(8, unsigned char)
SIM_SET_2D(16, unsigned short)
SIM_SET_2D(32, unsigned int)

/* ---- 3D peer copies: both contexts must be live; the sides are checked as for 2D copies ---- */

static CUresult copy_3d_peer(const CUDA_MEMCPY3D_PEER *c, CUstream stream, bool wait)
{
    SIM_REQUIRE_INIT();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_obj_live(c->srcContext, SIM_CTX) || !sim_obj_live(c->dstContext, SIM_CTX))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (c->srcLOD || c->dstLOD)
        return CUDA_ERROR_INVALID_VALUE;
    struct end3d src = {c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcZ, c->srcPitch,
                       c->srcHeight};
    struct end3d dst = {c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstZ, c->dstPitch,
                       c->dstHeight};
    return copy_3d(&src, &dst, c->WidthInBytes, c->Height, c->Depth, stream, wait);
}

CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return copy_3d_peer(pCopy, NULL, true);
}

CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return copy_3d_peer(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy_3d_peer(pCopy, hStream, false);
}

CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy_3d_peer(pCopy, SIM_PTSZ(hStream), false);
}
