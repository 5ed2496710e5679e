/* The name part of a launch's payload (decode_launch.h decodes the rest inline). */
#include "config.h"

#include "preload/decode_launch.h"
#include "preload/kernel_names.h"

uint32_t ct_launch_name_id(const struct ct_pl_launch *pl)
{
    const void *fn = (const void *)(uintptr_t)pl->function;

    switch (pl->kind) {
    case CT_LAUNCH_KERNEL:
    case CT_LAUNCH_COOPERATIVE:
        return ct_kernel_name_id((CUfunction)fn);
    case CT_LAUNCH_HOST_FUNC:
        return ct_host_fn_name_id(fn);
    default:
        return 0; /* a graph: its kernels are not named here */
    }
}
