/* Decoders of launches: grid, block, cluster, shared memory, stream and the kernel's name. */
#include "config.h"

#include "preload/decode.h"
#include "preload/hot.h"
#include "preload/interpose.h"
#include "preload/kernel_names.h"

#include <string.h>

static inline __attribute__((always_inline)) void launch(struct ct_pl_launch *pl, enum ct_launch_kind kind, const void *function, uint32_t name_id,
                   const unsigned grid[3], const unsigned block[3], unsigned shared_mem, CUstream stream)
{
    memset(pl, 0, sizeof *pl);
    pl->function = (uint64_t)(uintptr_t)function;
    pl->stream = (uint64_t)(uintptr_t)stream;
    pl->name_id = name_id;
    for (int i = 0; i < 3; i++) {
        pl->grid[i] = grid ? grid[i] : 0;
        pl->block[i] = block ? block[i] : 0;
    }
    pl->shared_mem = shared_mem;
    pl->kind = kind;
}

static inline __attribute__((always_inline)) void kernel(struct ct_pl_launch *pl, enum ct_launch_kind kind, CUfunction f, unsigned gx, unsigned gy,
                   unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared_mem, CUstream stream)
{
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    launch(pl, kind, f, ct_kernel_name_id(f), grid, block, shared_mem, stream);
}

/* recorder.c's ct_rec_launch_kernel_again compares cuLaunchKernel's arguments with a saved payload field by
 * field, without calling this: a change to what this decodes is a change there. */
CT_HOT_CODE
void ct_dec_cuLaunchKernel(struct ct_pl_launch *pl, CUresult r, CUfunction f, unsigned int gridDimX,
                           unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams,
                           void **extra)
{
    kernel(pl, CT_LAUNCH_KERNEL, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
           hStream);
}

void ct_dec_cuLaunchCooperativeKernel(struct ct_pl_launch *pl, CUresult r, CUfunction f, unsigned int gridDimX,
                                      unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX,
                                      unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes,
                                      CUstream hStream, void **kernelParams)
{
    kernel(pl, CT_LAUNCH_COOPERATIVE, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
           sharedMemBytes, hStream);
}

/* The launch configuration's attributes may make it a cluster or a cooperative launch. */
CT_HOT_CODE
void ct_dec_cuLaunchKernelEx(struct ct_pl_launch *pl, CUresult r, const CUlaunchConfig *config, CUfunction f,
                             void **kernelParams, void **extra)
{
    if (!config) {
        launch(pl, CT_LAUNCH_KERNEL, f, ct_kernel_name_id(f), NULL, NULL, 0, NULL);
        return;
    }
    kernel(pl, CT_LAUNCH_KERNEL, f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
           config->blockDimY, config->blockDimZ, config->sharedMemBytes, config->hStream);
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
void ct_dec_cuLaunch(struct ct_pl_launch *pl, CUresult r, CUfunction f)
{
    kernel(pl, CT_LAUNCH_KERNEL, f, 1, 1, 1, 0, 0, 0, 0, NULL);
}

void ct_dec_cuLaunchGrid(struct ct_pl_launch *pl, CUresult r, CUfunction f, int grid_width, int grid_height)
{
    kernel(pl, CT_LAUNCH_KERNEL, f, (unsigned)grid_width, (unsigned)grid_height, 1, 0, 0, 0, 0, NULL);
}

void ct_dec_cuLaunchGridAsync(struct ct_pl_launch *pl, CUresult r, CUfunction f, int grid_width, int grid_height,
                              CUstream hStream)
{
    kernel(pl, CT_LAUNCH_KERNEL, f, (unsigned)grid_width, (unsigned)grid_height, 1, 0, 0, 0, 0, hStream);
}

void ct_dec_cuLaunchHostFunc(struct ct_pl_launch *pl, CUresult r, CUstream hStream, CUhostFn fn, void *userData)
{
    const void *addr = *(const void **)&fn; /* a function's address as data, for the record and dladdr */
    launch(pl, CT_LAUNCH_HOST_FUNC, addr, ct_host_fn_name_id(addr), NULL, NULL, 0, hStream);
}

void ct_dec_cuGraphLaunch(struct ct_pl_launch *pl, CUresult r, CUgraphExec hGraphExec, CUstream hStream)
{
    launch(pl, CT_LAUNCH_GRAPH, hGraphExec, 0, NULL, NULL, 0, hStream);
}
