/* Multi-GPU sample (driver API, linked with -lcuda; runs on the simulated driver's two devices and on a
 * machine with two GPUs): one process, a context on each device (device 0's primary context, a created
 * context on device 1), allocations on each, and copies between them with every peer-copy call:
 *
 *   device 0: src, back (1 MiB each)           device 1: buf (1 MiB), box (256 KiB)
 *   cuMemcpyPeer         src -> buf   1 MiB    (device 0 to 1)
 *   cuMemcpyPeerAsync    buf -> back  1 MiB    (1 to 0, on a stream of device 0's context)
 *   cuMemcpy3DPeer       src -> box   512 B x 64 rows x 4 slices = 128 KiB (0 to 1)
 *   cuMemcpy3DPeerAsync  box -> back  the same box                        (1 to 0)
 *   cuMemcpyDtoD         src -> buf   64 KiB  (0 to 1: not a peer call, but a copy between two devices)
 *   cuMemcpyAsync        buf -> back  64 KiB  (1 to 0, unified addressing)
 *
 * Peer access is enabled both ways where cuDeviceCanAccessPeer allows it (peer copies work without it,
 * staged through the host).  Every result is copied back and checked.  Exit 0 and "multi_gpu_peer:
 * PASSED"; 77 with "multi_gpu_peer: skipped: ..." on stderr with fewer than two devices (the GPU runner's
 * SKIP); 1 when a call or a check fails.  tests/gpu/expect/multi_gpu_peer.sh asserts the trace. */
#include "config.h"

#include "drv_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES (1u << 20)
#define BOX_BYTES (256u << 10)
#define BOX_W 512 /* bytes per row */
#define BOX_H 64  /* rows per slice */
#define BOX_D 4   /* slices */
#define SRC_PITCH 1024 /* src and back are read as slices of BOX_H rows of SRC_PITCH bytes */
#define SMALL (64u << 10)

static unsigned char host_src[BYTES], host_back[BYTES], host_box[BOX_BYTES];

static CUDA_MEMCPY3D_PEER box_copy(CUdeviceptr src, CUcontext sctx, size_t spitch, CUdeviceptr dst, CUcontext dctx,
                                   size_t dpitch)
{
    CUDA_MEMCPY3D_PEER c = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = src, .srcContext = sctx, .srcPitch = spitch,
        .srcHeight = BOX_H,
        .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = dst, .dstContext = dctx, .dstPitch = dpitch,
        .dstHeight = BOX_H,
        .WidthInBytes = BOX_W, .Height = BOX_H, .Depth = BOX_D,
    };
    return c;
}

/* Byte (x, y, z) of the box inside a buffer of SRC_PITCH-byte rows. */
static size_t box_at(size_t x, size_t y, size_t z)
{
    return (z * BOX_H + y) * SRC_PITCH + x;
}

/* Enables access from ctx (made current) to peer where the devices allow it. */
static void enable_peer(CUcontext ctx, CUdevice dev, CUcontext peer, CUdevice peer_dev)
{
    int can = 0;
    CHECK(cuDeviceCanAccessPeer(&can, dev, peer_dev));
    if (!can)
        return;
    CHECK(cuCtxPushCurrent(ctx));
    CHECK(cuCtxEnablePeerAccess(peer, 0));
    CHECK(cuCtxPopCurrent(NULL));
}

int main(void)
{
    int count = 0;
    CHECK(cuInit(0));
    CHECK(cuDeviceGetCount(&count));
    if (count < 2) {
        fprintf(stderr, "multi_gpu_peer: skipped: needs 2 GPUs, found %d\n", count);
        return 77;
    }
    CUdevice dev0, dev1;
    CUcontext ctx0, ctx1;
    CHECK(cuDeviceGet(&dev0, 0));
    CHECK(cuDeviceGet(&dev1, 1));
    CHECK(cuDevicePrimaryCtxRetain(&ctx0, dev0));
    CHECK(cuCtxCreate(&ctx1, NULL, 0, dev1)); /* current from here on, until popped */
    CHECK(cuCtxPopCurrent(NULL));
    enable_peer(ctx0, dev0, ctx1, dev1);
    enable_peer(ctx1, dev1, ctx0, dev0);

    for (size_t i = 0; i < BYTES; i++)
        host_src[i] = (unsigned char)(i * 7 + i / 4099);

    /* Device 0's buffers, allocated in its context. */
    CUdeviceptr src, back, buf, box;
    CUstream stream0;
    CHECK(cuCtxPushCurrent(ctx0));
    CHECK(cuMemAlloc(&src, BYTES));
    CHECK(cuMemAlloc(&back, BYTES));
    /* A blocking stream: its work waits for the legacy stream's (the synchronous-looking copies and sets
     * between devices need not be finished when they return). */
    CHECK(cuStreamCreate(&stream0, CU_STREAM_DEFAULT));
    CHECK(cuMemcpyHtoD(src, host_src, BYTES));
    CHECK(cuCtxPopCurrent(NULL));
    /* Device 1's. */
    CHECK(cuCtxPushCurrent(ctx1));
    CHECK(cuMemAlloc(&buf, BYTES));
    CHECK(cuMemAlloc(&box, BOX_BYTES));
    CHECK(cuMemsetD8(box, 0, BOX_BYTES));
    CHECK(cuCtxSynchronize()); /* device 1's legacy stream is not ordered with device 0's */
    CHECK(cuCtxPopCurrent(NULL));

    /* The peer copies, issued from device 0's context. */
    CHECK(cuCtxPushCurrent(ctx0));
    CHECK(cuMemcpyPeer(buf, ctx1, src, ctx0, BYTES));
    CHECK(cuMemcpyPeerAsync(back, ctx0, buf, ctx1, BYTES, stream0));
    CHECK(cuStreamSynchronize(stream0));
    CHECK(cuMemcpyDtoH(host_back, back, BYTES));
    sample_require(memcmp(host_src, host_back, BYTES) == 0, "cuMemcpyPeer and cuMemcpyPeerAsync: 0 -> 1 -> 0");
    printf("cuMemcpyPeer, cuMemcpyPeerAsync: %u bytes from device 0 to 1 and back: PASSED\n", BYTES);

    CUDA_MEMCPY3D_PEER there = box_copy(src, ctx0, SRC_PITCH, box, ctx1, BOX_W);
    CHECK(cuMemcpy3DPeer(&there));
    CHECK(cuMemsetD8(back, 0, BYTES));
    CUDA_MEMCPY3D_PEER again = box_copy(box, ctx1, BOX_W, back, ctx0, SRC_PITCH);
    CHECK(cuMemcpy3DPeerAsync(&again, stream0));
    CHECK(cuStreamSynchronize(stream0));
    CHECK(cuMemcpyDtoH(host_back, back, BYTES));
    CHECK(cuCtxPopCurrent(NULL));
    CHECK(cuCtxPushCurrent(ctx1));
    CHECK(cuMemcpyDtoH(host_box, box, BOX_BYTES));
    CHECK(cuCtxPopCurrent(NULL));
    size_t box_bytes = (size_t)BOX_W * BOX_H * BOX_D;
    for (size_t z = 0; z < BOX_D; z++)
        for (size_t y = 0; y < BOX_H; y++)
            for (size_t x = 0; x < SRC_PITCH; x++) {
                size_t at = box_at(x, y, z);
                int inside = x < BOX_W;
                sample_require(host_back[at] == (inside ? host_src[at] : 0), "cuMemcpy3DPeer(Async): the box back");
                if (inside)
                    sample_require(host_box[(z * BOX_H + y) * BOX_W + x] == host_src[at],
                                   "cuMemcpy3DPeer: the box on device 1");
            }
    sample_require(host_box[box_bytes] == 0, "cuMemcpy3DPeer: nothing past the box");
    printf("cuMemcpy3DPeer, cuMemcpy3DPeerAsync: %zu bytes (%d x %d x %d) from device 0 to 1 and back: PASSED\n",
           box_bytes, BOX_W, BOX_H, BOX_D);

    /* Copies between the devices through the calls that do not name peers. */
    CHECK(cuCtxPushCurrent(ctx0));
    CHECK(cuMemsetD8(back, 0, BYTES));
    CHECK(cuMemcpyDtoD(buf, src + SMALL, SMALL));
    CHECK(cuMemcpyAsync(back, buf, SMALL, stream0));
    CHECK(cuStreamSynchronize(stream0));
    CHECK(cuMemcpyDtoH(host_back, back, 2 * SMALL));
    sample_require(memcmp(host_back, host_src + SMALL, SMALL) == 0, "cuMemcpyDtoD, cuMemcpyAsync: 0 -> 1 -> 0");
    for (size_t i = SMALL; i < 2 * SMALL; i++)
        sample_require(host_back[i] == 0, "cuMemcpyAsync: nothing past its bytes");
    printf("cuMemcpyDtoD, cuMemcpyAsync: %u bytes from device 0 to 1 and back: PASSED\n", SMALL);

    CHECK(cuStreamDestroy(stream0));
    CHECK(cuMemFree(src));
    CHECK(cuMemFree(back));
    CHECK(cuCtxPopCurrent(NULL));
    CHECK(cuCtxPushCurrent(ctx1));
    CHECK(cuMemFree(buf));
    CHECK(cuMemFree(box));
    CHECK(cuCtxPopCurrent(NULL));
    CHECK(cuCtxDestroy(ctx1));
    CHECK(cuDevicePrimaryCtxRelease(dev0));
    printf("multi_gpu_peer: PASSED\n");
    return 0;
}
