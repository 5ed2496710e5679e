/* GPU time's sources and the one in use (gputime.h): the entry points the interposition layer and the
 * recorder call, passed on to the backends (backend.h). */
#include "config.h"

#include <pthread.h>
#include <stddef.h>

#include "gputime/gputime.h"
#include "recorder/gpu.h"

extern const struct ct_gpu_backend ct_gpu_events; /* events.c */

/* Every source, in the order they are tried. */
static const struct ct_gpu_backend *const backends[] = {&ct_gpu_events};
#define NBACKENDS (sizeof backends / sizeof backends[0])

const struct ct_gpu_backend *_Atomic ct_gpu_current;

int ct_gpu_timing_start(int mode, unsigned sample_n)
{
    (void)sample_n;
    if (mode == CT_GPU_OFF)
        return CT_GPU_OFF;
    for (size_t i = 0; i < NBACKENDS; i++)
        if (backends[i]->start() == 0) {
            atomic_store(&ct_gpu_current, backends[i]);
            return mode;
        }
    return CT_GPU_OFF;
}

void ct_gpu_collect(int final)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->collect(final);
}

void ct_gpu_ctx_closing(CUcontext ctx)
{
    if (!ctx || !ct_gpu_used())
        return;
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->ctx_closing(ctx);
}

void ct_gpu_ctx_closed(CUcontext ctx, int gone)
{
    if (!ctx || !ct_gpu_used())
        return;
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->ctx_closed(ctx, gone);
}

void ct_gpu_fork_prepare(void)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->fork_prepare();
}

void ct_gpu_fork_parent(void)
{
    for (size_t i = NBACKENDS; i-- > 0;)
        backends[i]->fork_parent();
}

void ct_gpu_fork_child(void)
{
    for (size_t i = NBACKENDS; i-- > 0;)
        backends[i]->fork_child();
}
