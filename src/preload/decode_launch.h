/* Launch decoders: grid, block, cluster, shared memory, stream and kind of a launch, into a payload whose
 * name_id is left 0.  Inline, because every launch runs one before the recorder's shortcut
 * (recorder_hot.h, ct_rec_launch_again) decides whether this launch repeats the slot's; only when it does
 * not does the trampoline look the name up (ct_launch_name_id) and record the full payload.
 * scripts/gen-wrappers.py reads the ct_dec_ definitions here as it reads decode.h's prototypes. */
#ifndef CT_PRELOAD_DECODE_LAUNCH_H
#define CT_PRELOAD_DECODE_LAUNCH_H

#include <stdint.h>
#include <string.h>

#include "cudatrace/format.h"
#include "cuda/api.h"

/* decode_launch.c: the name of the payload's kernel (CT_REC_STRING id), host function, or 0 for a graph. */
uint32_t ct_launch_name_id(const struct ct_pl_launch *pl);

static inline __attribute__((always_inline)) void ct_launch_payload(struct ct_pl_launch *pl,
                                                                   enum ct_launch_kind kind, const void *function,
                                                                   unsigned gx, unsigned gy, unsigned gz,
                                                                   unsigned bx, unsigned by, unsigned bz,
                                                                   unsigned shared_mem, CUstream stream)
{
    memset(pl, 0, sizeof *pl); /* every byte is compared (ct_rec_same_launch) */
    pl->function = (uint64_t)(uintptr_t)function;
    pl->stream = (uint64_t)(uintptr_t)stream;
    pl->grid[0] = gx, pl->grid[1] = gy, pl->grid[2] = gz;
    pl->block[0] = bx, pl->block[1] = by, pl->block[2] = bz;
    pl->shared_mem = shared_mem;
    pl->kind = kind;
}

static inline __attribute__((always_inline)) void
ct_dec_cuLaunchKernel(struct ct_pl_launch *pl, CUresult r, CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                      unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                      unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    (void)r, (void)kernelParams, (void)extra;
    ct_launch_payload(pl, CT_LAUNCH_KERNEL, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                      sharedMemBytes, hStream);
}

static inline __attribute__((always_inline)) void
ct_dec_cuLaunchCooperativeKernel(struct ct_pl_launch *pl, CUresult r, CUfunction f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes,
                                 CUstream hStream, void **kernelParams)
{
    (void)r, (void)kernelParams;
    ct_launch_payload(pl, CT_LAUNCH_COOPERATIVE, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                      sharedMemBytes, hStream);
}

/* The launch configuration's attributes may make it a cluster or a cooperative launch. */
static inline __attribute__((always_inline)) void
ct_dec_cuLaunchKernelEx(struct ct_pl_launch *pl, CUresult r, const CUlaunchConfig *config, CUfunction f,
                        void **kernelParams, void **extra)
{
    (void)r, (void)kernelParams, (void)extra;
    if (!config) {
        ct_launch_payload(pl, CT_LAUNCH_KERNEL, f, 0, 0, 0, 0, 0, 0, 0, NULL);
        return;
    }
    ct_launch_payload(pl, CT_LAUNCH_KERNEL, f, config->gridDimX, config->gridDimY, config->gridDimZ,
                      config->blockDimX, config->blockDimY, config->blockDimZ, config->sharedMemBytes,
                      config->hStream);
    for (unsigned i = 0; config->attrs && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            pl->cluster[0] = a->value.clusterDim.x;
            pl->cluster[1] = a->value.clusterDim.y;
            pl->cluster[2] = a->value.clusterDim.z;
        } else if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a->value.cooperative) {
            pl->kind = CT_LAUNCH_COOPERATIVE;
        }
    }
}

/* Legacy launches (block shape set earlier by cuFuncSetBlockShape, not known here). */
static inline __attribute__((always_inline)) void ct_dec_cuLaunch(struct ct_pl_launch *pl, CUresult r, CUfunction f)
{
    (void)r;
    ct_launch_payload(pl, CT_LAUNCH_KERNEL, f, 1, 1, 1, 0, 0, 0, 0, NULL);
}

static inline __attribute__((always_inline)) void
ct_dec_cuLaunchGrid(struct ct_pl_launch *pl, CUresult r, CUfunction f, int grid_width, int grid_height)
{
    (void)r;
    ct_launch_payload(pl, CT_LAUNCH_KERNEL, f, (unsigned)grid_width, (unsigned)grid_height, 1, 0, 0, 0, 0, NULL);
}

static inline __attribute__((always_inline)) void
ct_dec_cuLaunchGridAsync(struct ct_pl_launch *pl, CUresult r, CUfunction f, int grid_width, int grid_height,
                         CUstream hStream)
{
    (void)r;
    ct_launch_payload(pl, CT_LAUNCH_KERNEL, f, (unsigned)grid_width, (unsigned)grid_height, 1, 0, 0, 0, 0, hStream);
}

static inline __attribute__((always_inline)) void
ct_dec_cuLaunchHostFunc(struct ct_pl_launch *pl, CUresult r, CUstream hStream, CUhostFn fn, void *userData)
{
    (void)r, (void)userData;
    const void *addr = *(const void **)&fn; /* a function's address as data, for the record and dladdr */
    ct_launch_payload(pl, CT_LAUNCH_HOST_FUNC, addr, 0, 0, 0, 0, 0, 0, 0, hStream);
}

static inline __attribute__((always_inline)) void
ct_dec_cuGraphLaunch(struct ct_pl_launch *pl, CUresult r, CUgraphExec hGraphExec, CUstream hStream)
{
    (void)r;
    ct_launch_payload(pl, CT_LAUNCH_GRAPH, hGraphExec, 0, 0, 0, 0, 0, 0, 0, hStream);
}

#endif
