/* Kernel launches: the arguments are marshalled into one aligned parameter buffer at the offsets the PTX
 * declares (from kernelParams, or from the packed `extra` buffer), then the C kernel runs on this thread
 * (sim_enqueue: it lasts the `spin` kernel's argument or SIM_KERNEL_NS), or the launch joins a capture. */
#include "config.h"

#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define SIM_PARAM_BUFFER 4096 /* bytes marshalled on the stack; larger parameter lists use the heap */
#define SIM_MAX_PARAMS 512

struct launch_request {
    CUfunction f;
    struct sim_launch geometry;
    CUstream stream;
    void **kernel_params;
    void **extra;
    bool cooperative;
};

static CUresult check_geometry(const struct sim_launch *l)
{
    const struct sim_dim3 *g = &l->grid, *b = &l->block;
    if (!g->x || !g->y || !g->z || !b->x || !b->y || !b->z)
        return CUDA_ERROR_INVALID_VALUE;
    if (g->x > 0x7fffffffu || g->y > 65535 || g->z > 65535 || b->x > 1024 || b->y > 1024 || b->z > 64 ||
        (unsigned long long)b->x * b->y * b->z > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    return l->shared_mem > 227 * 1024 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* The packed buffer and its size from `extra`: {BUFFER_POINTER, p, BUFFER_SIZE, &size, END}. */
static CUresult read_extra(void **extra, const unsigned char **buffer, size_t *size)
{
    const size_t *psize = NULL;
    *buffer = NULL;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            *buffer = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            psize = extra[i + 1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (!*buffer || !psize)
        return CUDA_ERROR_INVALID_VALUE;
    *size = *psize;
    return CUDA_SUCCESS;
}

static CUresult marshal(const struct launch_request *rq, unsigned char *buffer)
{
    const struct sim_entry *e = rq->f->entry;
    if (e->nparams == 0)
        return CUDA_SUCCESS;
    if (rq->kernel_params) {
        for (unsigned int i = 0; i < e->nparams; i++) {
            if (!rq->kernel_params[i])
                return CUDA_ERROR_INVALID_VALUE;
            memcpy(buffer + e->params[i].offset, rq->kernel_params[i], e->params[i].size);
        }
        return CUDA_SUCCESS;
    }
    if (!rq->extra)
        return CUDA_ERROR_INVALID_VALUE;
    const unsigned char *packed;
    size_t size;
    CUresult r = read_extra(rq->extra, &packed, &size);
    if (r != CUDA_SUCCESS)
        return r;
    if (size < e->param_bytes)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(buffer, packed, e->param_bytes);
    return CUDA_SUCCESS;
}

static CUresult launch(const struct launch_request *rq)
{
    if (sim_config()->launch_ns) /* a launch that costs the host, as a real one does */
        sim_sleep_until(sim_now_ns() + sim_config()->launch_ns);
    CUresult r = sim_ctx_require(NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!sim_obj_live(rq->f, SIM_FUNC))
        return CUDA_ERROR_INVALID_HANDLE;
    if ((r = sim_stream_check(rq->stream)) != CUDA_SUCCESS)
        return r;
    if ((r = check_geometry(&rq->geometry)) != CUDA_SUCCESS)
        return r;
    if (rq->kernel_params && rq->extra)
        return CUDA_ERROR_INVALID_VALUE;
    const struct sim_entry *e = rq->f->entry;
    if (e->nparams > SIM_MAX_PARAMS)
        return CUDA_ERROR_INVALID_VALUE;
    if (rq->cooperative) {
        CUcontext ctx = sim_ctx_current();
        unsigned long long blocks = (unsigned long long)rq->geometry.grid.x * rq->geometry.grid.y * rq->geometry.grid.z;
        if (blocks > (unsigned long long)sim_device(ctx->device)->sm_count * 32)
            return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    }
    _Alignas(16) unsigned char local[SIM_PARAM_BUFFER];
    unsigned char *buffer = local;
    if (e->param_bytes > sizeof local && !(buffer = aligned_alloc(16, (e->param_bytes + 15) & ~(size_t)15)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = marshal(rq, buffer)) == CUDA_SUCCESS) {
        const struct sim_kernel *k = rq->f->kernel;
        size_t offsets[SIM_MAX_PARAMS];
        void *args[SIM_MAX_PARAMS];
        for (unsigned int i = 0; i < e->nparams; i++)
            args[i] = buffer + (offsets[i] = e->params[i].offset);
        struct sim_work w = {.kind = SIM_WORK_KERNEL,
                             .ns = k && k->duration ? k->duration(args) : sim_config()->kernel_ns,
                             .u.kernel = {k, e->name, rq->geometry, e->nparams, offsets, buffer, e->param_bytes}};
        r = sim_enqueue(rq->stream, &w, false);
    }
    if (buffer != local)
        free(buffer);
    return r;
}

static CUresult launch_kernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                              unsigned int by, unsigned int bz, unsigned int shmem, CUstream stream,
                              void **kernelParams, void **extra, bool cooperative)
{
    struct launch_request rq = {
        .f = f,
        .geometry = {{gx, gy, gz}, {bx, by, bz}, shmem},
        .stream = stream,
        .kernel_params = kernelParams,
        .extra = extra,
        .cooperative = cooperative,
    };
    return launch(&rq);
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    return launch_kernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
                         kernelParams, extra, false);
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                             unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                             unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    return launch_kernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                         SIM_PTSZ(hStream), kernelParams, extra, false);
}

static CUresult launch_cooperative(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                   unsigned int by, unsigned int bz, unsigned int shmem, CUstream stream,
                                   void **kernelParams)
{
    if (!kernelParams && sim_obj_live(f, SIM_FUNC) && f->entry->nparams > 0)
        return CUDA_ERROR_INVALID_VALUE; /* no `extra` here: arguments come only through kernelParams */
    return launch_kernel(f, gx, gy, gz, bx, by, bz, shmem, stream, kernelParams, NULL, true);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                   unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams)
{
    return launch_cooperative(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                              hStream, kernelParams);
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                        unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                        void **kernelParams)
{
    return launch_cooperative(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                              SIM_PTSZ(hStream), kernelParams);
}

/* Launch attributes: a cluster shape must divide the grid; cooperative asks for co-residency; the rest
 * (priorities, access policies, ...) change nothing here. */
static CUresult launch_ex(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra,
                          bool per_thread)
{
    if (!config || (config->numAttrs > 0 && !config->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    bool cooperative = false;
    for (unsigned int i = 0; i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
            cooperative = a->value.cooperative != 0;
        } else if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            unsigned int cx = a->value.clusterDim.x, cy = a->value.clusterDim.y, cz = a->value.clusterDim.z;
            if (!cx || !cy || !cz || config->gridDimX % cx || config->gridDimY % cy || config->gridDimZ % cz ||
                (unsigned long long)cx * cy * cz > 8)
                return CUDA_ERROR_INVALID_CLUSTER_SIZE;
        }
    }
    return launch_kernel(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                         config->blockDimY, config->blockDimZ, config->sharedMemBytes,
                         per_thread ? SIM_PTSZ(config->hStream) : config->hStream, kernelParams, extra, cooperative);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    return launch_ex(config, f, kernelParams, extra, false);
}

CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    return launch_ex(config, f, kernelParams, extra, true);
}
