/* Memory: device, host (pinned), registered, managed and stream-ordered allocations, all backed by host memory
 * so that a CUdeviceptr is a real pointer the C kernels and the copies can use; pools; pointer attributes. */
#include "config.h"

#include "sim.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SIM_ALIGN 256

struct CUmemPoolHandle_st {
    struct sim_obj obj;
    CUdevice device;
    bool is_default;
};

static struct sim_alloc *allocs;
static size_t device_used[SIM_DEVICE_COUNT];
static struct CUmemPoolHandle_st default_pools[SIM_DEVICE_COUNT];

const struct sim_alloc *sim_mem_find(uintptr_t addr, size_t len)
{
    for (const struct sim_alloc *a = allocs; a; a = a->next) {
        if (addr >= a->base && addr - a->base < a->size && len <= a->size - (addr - a->base))
            return a;
    }
    return NULL;
}

static bool counts_on_device(enum sim_mem_kind kind)
{
    return kind == SIM_MEM_DEVICE || kind == SIM_MEM_ASYNC || kind == SIM_MEM_MANAGED;
}

/* Unlinks and frees one entry; lock held. */
static void release(struct sim_alloc **link)
{
    struct sim_alloc *a = *link;
    *link = a->next;
    if (counts_on_device(a->kind))
        device_used[a->device] -= a->size;
    if (a->mapped)
        munmap((void *)a->base, a->mapped);
    else if (a->kind != SIM_MEM_REGISTERED)
        free((void *)a->base);
    free(a);
}

void sim_mem_release_ctx(CUcontext ctx)
{
    sim_lock();
    for (struct sim_alloc **p = &allocs; *p;) {
        if ((*p)->ctx == ctx)
            release(p);
        else
            p = &(*p)->next;
    }
    sim_unlock();
}

struct request {
    size_t size;
    enum sim_mem_kind kind;
    unsigned int flags;
    CUmemoryPool pool;
    bool below_4g; /* for the 32-bit CUdeviceptr_v1 of the legacy variants */
};

/* Allocates zeroed, 256-byte aligned memory in the current context and records it. Allocation is potentially
 * unsafe during a stream capture, except in stream order (cuMemAllocAsync). */
static CUresult allocate(const struct request *req, uintptr_t *out)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (req->kind != SIM_MEM_ASYNC && (r = sim_capture_unsafe_call()) != CUDA_SUCCESS)
        return r;
    if (!out || req->size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    struct sim_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t rounded = (req->size + SIM_ALIGN - 1) & ~(size_t)(SIM_ALIGN - 1);
    if (rounded < req->size)
        goto oom;
    void *p = NULL;
    if (req->below_4g) {
#ifdef MAP_32BIT
        p = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
        if (p == MAP_FAILED)
            p = NULL;
        a->mapped = rounded;
#endif
    } else {
        p = aligned_alloc(SIM_ALIGN, rounded);
        if (p)
            memset(p, 0, rounded);
    }
    if (!p)
        goto oom;
    a->base = (uintptr_t)p;
    a->size = req->size;
    a->kind = req->kind;
    a->ctx = ctx;
    a->device = ctx->device;
    a->flags = req->flags;
    a->pool = req->pool;
    a->id = sim_next_id();
    sim_lock();
    if (counts_on_device(a->kind) && device_used[a->device] + a->size > sim_device(a->device)->total_mem) {
        sim_unlock();
        if (a->mapped)
            munmap(p, a->mapped);
        else
            free(p);
        goto oom;
    }
    if (counts_on_device(a->kind))
        device_used[a->device] += a->size;
    a->next = allocs;
    allocs = a;
    sim_unlock();
    *out = a->base;
    return CUDA_SUCCESS;
oom:
    free(a);
    return CUDA_ERROR_OUT_OF_MEMORY;
}

/* Frees the allocation starting exactly at addr if its kind is one of `kinds` (a bit set); anything else,
 * including a second free of the same pointer, is CUDA_ERROR_INVALID_VALUE. Freeing 0 succeeds, as on the
 * real driver. */
static CUresult deallocate(uintptr_t addr, unsigned int kinds)
{
    SIM_REQUIRE_INIT();
    CUresult r;
    if (kinds != 1u << SIM_MEM_ASYNC && (r = sim_capture_unsafe_call()) != CUDA_SUCCESS)
        return r; /* potentially unsafe during a capture, except in stream order (cuMemFreeAsync) */
    if (addr == 0)
        return CUDA_SUCCESS;
    r = CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    for (struct sim_alloc **p = &allocs; *p; p = &(*p)->next) {
        if ((*p)->base == addr) {
            if (kinds & (1u << (*p)->kind)) {
                release(p);
                r = CUDA_SUCCESS;
            }
            break;
        }
    }
    sim_unlock();
    return r;
}

#define KIND(k) (1u << (k))
#define DEVICE_KINDS (KIND(SIM_MEM_DEVICE) | KIND(SIM_MEM_MANAGED) | KIND(SIM_MEM_ASYNC))

/* ---- device memory ---- */

CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
    struct request req = {.size = bytesize, .kind = SIM_MEM_DEVICE, .below_4g = true};
    uintptr_t p = 0;
    CUresult r = allocate(&req, dptr ? &p : NULL);
    if (r == CUDA_SUCCESS)
        *dptr = (CUdeviceptr_v1)p;
    return r;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    struct request req = {.size = bytesize, .kind = SIM_MEM_DEVICE};
    uintptr_t p = 0;
    CUresult r = allocate(&req, dptr ? &p : NULL);
    if (r == CUDA_SUCCESS)
        *dptr = p;
    return r;
}

/* Rows padded to 512 bytes, the texture pitch alignment a real device reports for this element size. */
static CUresult alloc_pitch(uintptr_t *p, size_t *pitch, size_t width, size_t height, unsigned int elem,
                            bool below_4g)
{
    if (!pitch || width == 0 || height == 0 || (elem != 4 && elem != 8 && elem != 16))
        return CUDA_ERROR_INVALID_VALUE;
    *pitch = (width + 511) & ~(size_t)511;
    struct request req = {.size = *pitch * height, .kind = SIM_MEM_DEVICE, .below_4g = below_4g};
    return allocate(&req, p);
}

CUresult cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pPitch, unsigned int WidthInBytes,
                         unsigned int Height, unsigned int ElementSizeBytes)
{
    uintptr_t p = 0;
    size_t pitch = 0;
    if (!dptr || !pPitch)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = alloc_pitch(&p, &pitch, WidthInBytes, Height, ElementSizeBytes, true);
    if (r == CUDA_SUCCESS) {
        *dptr = (CUdeviceptr_v1)p;
        *pPitch = (unsigned int)pitch;
    }
    return r;
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    uintptr_t p = 0;
    if (!dptr)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = alloc_pitch(&p, pPitch, WidthInBytes, Height, ElementSizeBytes, false);
    if (r == CUDA_SUCCESS)
        *dptr = p;
    return r;
}

CUresult cuMemFree(CUdeviceptr_v1 dptr)
{
    return deallocate(dptr, DEVICE_KINDS);
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    return deallocate(dptr, DEVICE_KINDS);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
        return CUDA_ERROR_INVALID_VALUE;
    struct request req = {.size = bytesize, .kind = SIM_MEM_MANAGED, .flags = flags};
    uintptr_t p = 0;
    CUresult r = allocate(&req, dptr ? &p : NULL);
    if (r == CUDA_SUCCESS)
        *dptr = p;
    return r;
}

static CUresult mem_info(size_t *free_bytes, size_t *total)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    *total = sim_device(ctx->device)->total_mem;
    *free_bytes = *total - device_used[ctx->device];
    sim_unlock();
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total)
{
    size_t f, t;
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = mem_info(&f, &t);
    if (r == CUDA_SUCCESS) {
        *free_bytes = f > UINT32_MAX ? UINT32_MAX : (unsigned int)f;
        *total = t > UINT32_MAX ? UINT32_MAX : (unsigned int)t;
    }
    return r;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    return mem_info(free_bytes, total);
}

static CUresult address_range(uintptr_t *base, size_t *size, uintptr_t ptr)
{
    SIM_REQUIRE_INIT();
    CUresult r = CUDA_ERROR_NOT_FOUND;
    sim_lock();
    const struct sim_alloc *a = sim_mem_find(ptr, 0);
    if (a) {
        *base = a->base;
        *size = a->size;
        r = CUDA_SUCCESS;
    }
    sim_unlock();
    return r;
}

CUresult cuMemGetAddressRange(CUdeviceptr_v1 *pbase, unsigned int *psize, CUdeviceptr_v1 dptr)
{
    uintptr_t base;
    size_t size;
    CUresult r = address_range(&base, &size, dptr);
    if (r == CUDA_SUCCESS) {
        if (pbase)
            *pbase = (CUdeviceptr_v1)base;
        if (psize)
            *psize = (unsigned int)size;
    }
    return r;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    uintptr_t base;
    size_t size;
    CUresult r = address_range(&base, &size, dptr);
    if (r == CUDA_SUCCESS) {
        if (pbase)
            *pbase = base;
        if (psize)
            *psize = size;
    }
    return r;
}

/* ---- page-locked host memory ---- */

static CUresult host_alloc(void **pp, size_t size, unsigned int flags)
{
    if (!pp)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED))
        return CUDA_ERROR_INVALID_VALUE;
    struct request req = {.size = size, .kind = SIM_MEM_HOST, .flags = flags};
    uintptr_t p = 0;
    CUresult r = allocate(&req, &p);
    if (r == CUDA_SUCCESS)
        *pp = (void *)p;
    return r;
}

CUresult cuMemAllocHost(void **pp, unsigned int bytesize)
{
    return host_alloc(pp, bytesize, 0);
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    return host_alloc(pp, bytesize, 0);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    return host_alloc(pp, bytesize, Flags);
}

CUresult cuMemFreeHost(void *p)
{
    return deallocate((uintptr_t)p, KIND(SIM_MEM_HOST));
}

static CUresult host_flags(const void *p, unsigned int *flags)
{
    SIM_REQUIRE_INIT();
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    const struct sim_alloc *a = sim_mem_find((uintptr_t)p, 0);
    if (a && (a->kind == SIM_MEM_HOST || a->kind == SIM_MEM_REGISTERED)) {
        *flags = a->flags;
        r = CUDA_SUCCESS;
    }
    sim_unlock();
    return r;
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    if (!pFlags)
        return CUDA_ERROR_INVALID_VALUE;
    return host_flags(p, pFlags);
}

/* With unified addressing the device sees page-locked memory at its host address. */
CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p, unsigned int Flags)
{
    unsigned int f;
    if (!pdptr || Flags != 0 || (uintptr_t)p > UINT32_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = host_flags(p, &f);
    if (r == CUDA_SUCCESS)
        *pdptr = (CUdeviceptr_v1)(uintptr_t)p;
    return r;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    unsigned int f;
    if (!pdptr || Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = host_flags(p, &f);
    if (r == CUDA_SUCCESS)
        *pdptr = (CUdeviceptr)(uintptr_t)p;
    return r;
}

static CUresult host_register(void *p, size_t size, unsigned int flags)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!p || size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    struct sim_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    a->base = (uintptr_t)p;
    a->size = size;
    a->kind = SIM_MEM_REGISTERED;
    a->ctx = ctx;
    a->device = ctx->device;
    a->flags = flags;
    a->id = sim_next_id();
    sim_lock();
    if (sim_mem_find(a->base, 1) || sim_mem_find(a->base + size - 1, 1)) {
        sim_unlock();
        free(a);
        return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
    a->next = allocs;
    allocs = a;
    sim_unlock();
    return CUDA_SUCCESS;
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    return host_register(p, bytesize, Flags);
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    return host_register(p, bytesize, Flags);
}

CUresult cuMemHostUnregister(void *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = deallocate((uintptr_t)p, KIND(SIM_MEM_REGISTERED));
    return r == CUDA_ERROR_INVALID_VALUE ? CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED : r;
}

/* ---- stream-ordered allocations and pools: work is done when submitted, so "async" is immediate ---- */

static CUmemoryPool default_pool(CUdevice dev)
{
    struct CUmemPoolHandle_st *pool = &default_pools[dev];
    sim_lock();
    if (!pool->is_default) {
        pool->device = dev;
        pool->is_default = true;
        sim_obj_register(&pool->obj, SIM_POOL);
    }
    sim_unlock();
    return pool;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice_v1 dev)
{
    SIM_REQUIRE_INIT();
    if (!pool_out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    *pool_out = default_pool(dev);
    return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
    SIM_REQUIRE_INIT();
    if (!pool || !poolProps || poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_device(poolProps->location.id))
        return CUDA_ERROR_INVALID_DEVICE;
    struct CUmemPoolHandle_st *p = calloc(1, sizeof *p);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    p->device = poolProps->location.id;
    sim_obj_register(&p->obj, SIM_POOL);
    *pool = p;
    return CUDA_SUCCESS;
}

CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
    SIM_REQUIRE_INIT();
    if (!pool || pool->is_default || !sim_obj_unregister(&pool->obj, SIM_POOL))
        return CUDA_ERROR_INVALID_VALUE;
    free(pool);
    return CUDA_SUCCESS;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    SIM_REQUIRE_INIT();
    return sim_obj_live(pool, SIM_POOL) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult alloc_async(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream stream)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = sim_stream_check(stream)) != CUDA_SUCCESS)
        return r;
    if (!dptr)
        return CUDA_ERROR_INVALID_VALUE;
    if (!pool)
        pool = default_pool(ctx->device);
    else if (!sim_obj_live(pool, SIM_POOL))
        return CUDA_ERROR_INVALID_VALUE;
    struct request req = {.size = size, .kind = SIM_MEM_ASYNC, .pool = pool};
    uintptr_t p = 0;
    if ((r = allocate(&req, &p)) == CUDA_SUCCESS)
        *dptr = p;
    return r;
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    return alloc_async(dptr, bytesize, NULL, hStream);
}

CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    return alloc_async(dptr, bytesize, NULL, hStream);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    return pool ? alloc_async(dptr, bytesize, pool, hStream) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    return pool ? alloc_async(dptr, bytesize, pool, hStream) : CUDA_ERROR_INVALID_VALUE;
}

static CUresult free_async(CUdeviceptr dptr, CUstream stream)
{
    CUresult r = sim_stream_check(stream);
    return r != CUDA_SUCCESS ? r : deallocate(dptr, KIND(SIM_MEM_ASYNC));
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    return free_async(dptr, hStream);
}

CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
    return free_async(dptr, hStream);
}

/* ---- pointer attributes ---- */

/* One attribute of the allocation a (NULL: not a CUDA pointer, default values as cuPointerGetAttributes gives
 * them). Booleans are written as unsigned int. */
static CUresult attribute(void *data, CUpointer_attribute attr, CUdeviceptr ptr, const struct sim_alloc *a)
{
    bool host = a && (a->kind == SIM_MEM_HOST || a->kind == SIM_MEM_REGISTERED);
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = a ? a->ctx : NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned int *)data = !a ? 0u : host ? (unsigned)CU_MEMORYTYPE_HOST : (unsigned)CU_MEMORYTYPE_DEVICE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(CUdeviceptr *)data = a ? ptr : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (a && !host && a->kind != SIM_MEM_MANAGED)
            return CUDA_ERROR_INVALID_VALUE; /* device memory has no host address */
        *(void **)data = a ? (void *)(uintptr_t)ptr : NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
        *(unsigned int *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        *(unsigned long long *)data = a ? a->id : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(unsigned int *)data = a && a->kind == SIM_MEM_MANAGED;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = a ? a->device : -2;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        *(CUdeviceptr *)data = a ? a->base : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
        *(size_t *)data = a ? a->size : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(unsigned int *)data = a != NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        *(unsigned long long *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        *(unsigned int *)data = a ? (unsigned)CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : 0u;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(CUmemoryPool *)data = a ? a->pool : NULL;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute_id, CUdeviceptr ptr)
{
    SIM_COUNT();
    SIM_REQUIRE_INIT();
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    const struct sim_alloc *a = sim_mem_find(ptr, 0);
    CUresult r = a ? attribute(data, attribute_id, ptr, a) : CUDA_ERROR_INVALID_VALUE;
    sim_unlock();
    return r;
}

/* Unlike the singular form, a pointer CUDA does not know is not an error: it reads as default values. */
CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr)
{
    SIM_COUNT();
    SIM_REQUIRE_INIT();
    if (!attributes || !data)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    sim_lock();
    const struct sim_alloc *a = sim_mem_find(ptr, 0);
    for (unsigned int i = 0; i < numAttributes && r == CUDA_SUCCESS; i++) {
        if (!data[i])
            r = CUDA_ERROR_INVALID_VALUE;
        else if (attributes[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER && a && a->kind != SIM_MEM_HOST &&
                 a->kind != SIM_MEM_REGISTERED && a->kind != SIM_MEM_MANAGED)
            *(void **)data[i] = NULL;
        else
            r = attribute(data[i], attributes[i], ptr, a);
    }
    sim_unlock();
    return r;
}
