/* GPU time from timing events (events.h): what the backend's parts share, the pools of every context and
 * their locks, giving pairs back, and the capture mode of the tracer's own calls. */
#include "config.h"

#include "gputime/events.h"

const struct ct_gpu_driver *ct_gpu_d;
struct ct_gpu_pool *_Atomic ct_gpu_pools;
pthread_mutex_t ct_gpu_collect_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ct_gpu_pools_mu = PTHREAD_MUTEX_INITIALIZER;

CUstreamCaptureMode ct_gpu_relax(void)
{
    CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
    if (ct_gpu_d->exchange_mode(&m) != CUDA_SUCCESS)
        m = CU_STREAM_CAPTURE_MODE_RELAXED; /* nothing to put back */
    return m;
}

void ct_gpu_unrelax(CUstreamCaptureMode was)
{
    if (was != CU_STREAM_CAPTURE_MODE_RELAXED)
        ct_gpu_d->exchange_mode(&was);
}

void ct_gpu_release(struct ct_gpu_pool *pool, struct ct_gpu_pair *list)
{
    if (!list)
        return;
    struct ct_gpu_pair *last = list;
    while (last->next)
        last = last->next;
    pthread_mutex_lock(&pool->mu);
    last->next = pool->free;
    pool->free = list;
    pthread_mutex_unlock(&pool->mu);
}
