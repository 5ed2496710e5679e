/* Decoders of allocations and frees: bytes, the address (or handle) returned, memory kind, device. */
#include "config.h"

#include "preload/decode.h"
#include "preload/interpose.h"
#include "preload/mem_map.h"

int32_t ct_current_device(void)
{
    CT_PFN_cuCtxGetDevice get = CT_DRIVER(cuCtxGetDevice);
    CUdevice dev;
    ct_guard++;
    int ok = get && get(&dev) == CUDA_SUCCESS;
    ct_guard--;
    return ok ? (int32_t)dev : -1;
}

/* The device of memory the tracer just saw allocated (mem_map.c's hook ran before the decoder and asked
 * the driver), else the current context's. */
static int32_t device_of(CUresult r, uint64_t address)
{
    int32_t device;
    enum ct_mem_kind kind;
    if (r == CUDA_SUCCESS && ct_mem_map_lookup(address, &kind, &device) == 1 && device >= 0)
        return device;
    return ct_current_device();
}

static void alloc(struct ct_pl_alloc *pl, CUresult r, uint64_t bytes, uint64_t address, enum ct_mem_kind kind,
                  int32_t device, CUstream stream)
{
    pl->bytes = bytes;
    pl->address = r == CUDA_SUCCESS ? address : 0;
    pl->stream = (uint64_t)(uintptr_t)stream;
    pl->kind = kind;
    pl->device = device;
}

void ct_dec_cuMemAlloc(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize)
{
    alloc(pl, r, bytesize, dptr ? *dptr : 0, CT_MEM_DEVICE, device_of(r, dptr ? *dptr : 0), NULL);
}

void ct_dec_cuMemAlloc_v2000(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
    alloc(pl, r, bytesize, dptr ? *dptr : 0, CT_MEM_DEVICE, device_of(r, dptr ? *dptr : 0), NULL);
}

/* A pitched allocation is pitch * height bytes (the width requested when it failed). */
void ct_dec_cuMemAllocPitch(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                            size_t Height, unsigned int ElementSizeBytes)
{
    uint64_t pitch = r == CUDA_SUCCESS && pPitch ? *pPitch : WidthInBytes;
    alloc(pl, r, pitch * Height, dptr ? *dptr : 0, CT_MEM_DEVICE, device_of(r, dptr ? *dptr : 0), NULL);
}

void ct_dec_cuMemAllocPitch_v2000(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr_v1 *dptr, unsigned int *pPitch,
                                  unsigned int WidthInBytes, unsigned int Height, unsigned int ElementSizeBytes)
{
    uint64_t pitch = r == CUDA_SUCCESS && pPitch ? *pPitch : WidthInBytes;
    alloc(pl, r, pitch * Height, dptr ? *dptr : 0, CT_MEM_DEVICE, device_of(r, dptr ? *dptr : 0), NULL);
}

void ct_dec_cuMemAllocManaged(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize,
                              unsigned int flags)
{
    alloc(pl, r, bytesize, dptr ? *dptr : 0, CT_MEM_MANAGED, device_of(r, dptr ? *dptr : 0), NULL);
}

void ct_dec_cuMemAllocHost(struct ct_pl_alloc *pl, CUresult r, void **pp, size_t bytesize)
{
    alloc(pl, r, bytesize, pp ? (uintptr_t)*pp : 0, CT_MEM_PINNED, -1, NULL);
}

void ct_dec_cuMemHostAlloc(struct ct_pl_alloc *pl, CUresult r, void **pp, size_t bytesize, unsigned int Flags)
{
    alloc(pl, r, bytesize, pp ? (uintptr_t)*pp : 0, CT_MEM_PINNED, -1, NULL);
}

void ct_dec_cuMemAllocAsync(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    alloc(pl, r, bytesize, dptr ? *dptr : 0, CT_MEM_ASYNC, device_of(r, dptr ? *dptr : 0), hStream);
}

void ct_dec_cuMemAllocFromPoolAsync(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr *dptr, size_t bytesize,
                                    CUmemoryPool pool, CUstream hStream)
{
    alloc(pl, r, bytesize, dptr ? *dptr : 0, CT_MEM_ASYNC, device_of(r, dptr ? *dptr : 0), hStream);
}

/* Physical memory of the virtual memory API: the address is the allocation handle. */
void ct_dec_cuMemCreate(struct ct_pl_alloc *pl, CUresult r, CUmemGenericAllocationHandle *handle, size_t size,
                        const CUmemAllocationProp *prop, unsigned long long flags)
{
    int32_t device = prop && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE ? prop->location.id : -1;
    alloc(pl, r, size, handle ? *handle : 0, CT_MEM_VMM, device, NULL);
}

/* A mapping of physical memory into a reserved range: the address is where it is mapped. */
void ct_dec_cuMemMap(struct ct_pl_alloc *pl, CUresult r, CUdeviceptr ptr, size_t size, size_t offset,
                     CUmemGenericAllocationHandle handle, unsigned long long flags)
{
    alloc(pl, r, size, ptr, CT_MEM_VMM_MAP, -1, NULL);
}

static void release(struct ct_pl_free *pl, uint64_t address, enum ct_mem_kind kind, CUstream stream)
{
    pl->address = address;
    pl->stream = (uint64_t)(uintptr_t)stream;
    pl->kind = kind;
    pl->reserved = 0;
}

void ct_dec_cuMemFree(struct ct_pl_free *pl, CUresult r, CUdeviceptr dptr)
{
    release(pl, dptr, CT_MEM_DEVICE, NULL);
}

void ct_dec_cuMemFreeHost(struct ct_pl_free *pl, CUresult r, void *p)
{
    release(pl, (uintptr_t)p, CT_MEM_PINNED, NULL);
}

void ct_dec_cuMemFreeAsync(struct ct_pl_free *pl, CUresult r, CUdeviceptr dptr, CUstream hStream)
{
    release(pl, dptr, CT_MEM_ASYNC, hStream);
}

void ct_dec_cuMemRelease(struct ct_pl_free *pl, CUresult r, CUmemGenericAllocationHandle handle)
{
    release(pl, handle, CT_MEM_VMM, NULL);
}

void ct_dec_cuMemUnmap(struct ct_pl_free *pl, CUresult r, CUdeviceptr ptr, size_t size)
{
    release(pl, ptr, CT_MEM_VMM_MAP, NULL);
}
