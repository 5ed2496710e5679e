/* JIT options of cuModuleLoadDataEx and cuLinkCreate: log buffers, their filled sizes and the wall time are
 * outputs written back into the caller's optionValues, as the driver does. */
#include "config.h"

#include "sim.h"

#include <stdio.h>
#include <string.h>

CUresult sim_jit_options_parse(struct sim_jit_options *o, unsigned int n, const CUjit_option *options,
                               void **values)
{
    memset(o, 0, sizeof *o);
    o->info_size_idx = o->error_size_idx = o->wall_time_idx = -1;
    if (n > 0 && (!options || !values))
        return CUDA_ERROR_INVALID_VALUE;
    o->values = values;
    for (unsigned int i = 0; i < n; i++) {
        switch (options[i]) {
        case CU_JIT_INFO_LOG_BUFFER: o->info_log = values[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            o->info_size = (unsigned int)(uintptr_t)values[i];
            o->info_size_idx = (int)i;
            break;
        case CU_JIT_ERROR_LOG_BUFFER: o->error_log = values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            o->error_size = (unsigned int)(uintptr_t)values[i];
            o->error_size_idx = (int)i;
            break;
        case CU_JIT_WALL_TIME: o->wall_time_idx = (int)i; break;
        case CU_JIT_LOG_VERBOSE: o->verbose = values[i] != NULL; break;
        default:
            if ((unsigned)options[i] >= CU_JIT_NUM_OPTIONS)
                return CUDA_ERROR_INVALID_VALUE;
            break; /* optimisation level, target, ...: nothing to simulate */
        }
    }
    return CUDA_SUCCESS;
}

/* Writes msg into a log buffer of `size` bytes (capped, NUL-terminated); the filled size (without the NUL)
 * replaces the size option's value. */
static void write_log(const struct sim_jit_options *o, char *log, unsigned int size, int size_idx, const char *msg)
{
    if (!log || size == 0)
        return;
    snprintf(log, size, "%s", msg ? msg : "");
    if (size_idx >= 0)
        o->values[size_idx] = (void *)(uintptr_t)strlen(log);
}

void sim_jit_options_finish(const struct sim_jit_options *o, const char *info, const char *error, float ms)
{
    write_log(o, o->info_log, o->info_size, o->info_size_idx, info);
    write_log(o, o->error_log, o->error_size, o->error_size_idx, error);
    if (o->wall_time_idx >= 0) { /* the float itself overwrites the option value */
        o->values[o->wall_time_idx] = NULL;
        memcpy(&o->values[o->wall_time_idx], &ms, sizeof ms);
    }
}
