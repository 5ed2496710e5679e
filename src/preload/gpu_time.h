/* GPU time, the driver's part (the recorder's part is recorder/gpu.h): timing events around launches, copies
 * and sets.  A trampoline asks ct_gpu_choose whether to time its call (per thread and kind, no lock), then
 * ct_gpu_begin records the start event on the call's own stream from a pool of the current context, and
 * ct_gpu_end the end event once the call succeeded.  The writer's thread reads the events back (never
 * waiting), places them on the trace's clock through anchor events and queues their spans.  Contexts that go
 * away, fork and exit are handled here too.  doc/gpu-time.md explains the choices. */
#ifndef CT_PRELOAD_GPU_TIME_H
#define CT_PRELOAD_GPU_TIME_H

#include "preload/cuda_api.h"

#include <stdint.h>

#include "cudatrace/format.h"
#include "preload/kernel_names.h"
#include "recorder/gpu.h"

/* A thread's kinds of call (a launch's function, grid and block; a copy's function and size class): how many
 * were timed, and how many calls remain until the next timing.  Eight ways to a set, a set to two cache
 * lines: a training step launches a few hundred kinds on a thread; in the direct-mapped table of 512 before,
 * kinds that shared a slot started again from their first timings at each call and were all timed (300
 * kinds taken in turn, 40 times: 6,823 calls timed, not 2,700).  A kind never takes a kind's way: one that
 * finds its set full (nine kinds of a thread in one set) is timed 1 in ct_gpu_sample_n, counted with the
 * thread's other such calls, without first timings, so that no kind is timed more than it would be alone. */
struct ct_gpu_kind {
    uint64_t key;
    uint32_t timed;
    uint32_t left;
};
#define CT_GPU_WAYS 8u
#define CT_GPU_SETS 256u
#define CT_GPU_KINDS (CT_GPU_SETS * CT_GPU_WAYS)
/* The count to the next timing of the calls whose kind found no way (ct_gpu_choose). */
extern __thread uint32_t ct_gpu_overflow_left __attribute__((tls_model("initial-exec")));
/* The calling thread's table; NULL until its first call in sample mode. */
extern __thread struct ct_gpu_kind *ct_gpu_kinds __attribute__((tls_model("initial-exec")));

static inline uint64_t ct_gpu_mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x9e3779b97f4a7c15ull + (h >> 29);
}
/* A launch's kind.  The kernel names' generation is in it: a handle freed by a module unload and given to
 * another kernel is another kind. */
static inline uint64_t ct_gpu_key_launch(unsigned api_id, const void *fn, unsigned gx, unsigned gy, unsigned gz,
                                         unsigned bx, unsigned by, unsigned bz)
{
    uint64_t h = ct_gpu_mix(api_id, (uint64_t)(uintptr_t)fn ^
                                        (uint64_t)__atomic_load_n(&ct_kernel_name_generation, __ATOMIC_RELAXED) << 48);
    h = ct_gpu_mix(h, (uint64_t)gx << 32 | gy);
    h = ct_gpu_mix(h, (uint64_t)gz << 32 | bx);
    return ct_gpu_mix(h, (uint64_t)by << 32 | bz);
}
/* Copies and sets of one function whose sizes have the same highest bit are one kind. */
static inline uint64_t ct_gpu_key_size(unsigned api_id, uint64_t bytes)
{
    return ct_gpu_mix(api_id, bytes ? 64u - (unsigned)__builtin_clzll(bytes) : 0u);
}

/* The calling thread's table, made (NULL when out of memory: then every call is timed). */
struct ct_gpu_kind *ct_gpu_kinds_make(void);

/* Time this call?  all: yes.  sample: the first CT_GPU_SAMPLE_K calls of its kind on this thread, then one
 * in ct_gpu_sample_n.  Only when ct_gpu_mode is not off (the trampoline tests that first), inside ct_busy
 * (a thread's first call makes its table). */
static inline int ct_gpu_choose(uint64_t key)
{
    struct ct_gpu_kind *t = ct_gpu_kinds, *k;

    if (ct_gpu_mode == CT_GPU_ALL || (!t && !(t = ct_gpu_kinds_make())))
        return 1;
    struct ct_gpu_kind *set = &t[(key ^ key >> 32) % CT_GPU_SETS * CT_GPU_WAYS];
    unsigned w = 0;
    while (w < CT_GPU_WAYS && set[w].key != key)
        w++;
    if (w == CT_GPU_WAYS) { /* a new kind: an empty way (key 0) ... */
        w = 0;
        while (w < CT_GPU_WAYS && set[w].key != 0)
            w++;
        if (w == CT_GPU_WAYS) { /* ... or none: 1 in N of such calls */
            if (ct_gpu_overflow_left > 1) {
                ct_gpu_overflow_left--;
                return 0;
            }
            ct_gpu_overflow_left = ct_gpu_sample_n;
            return 1;
        }
        set[w].key = key;
        set[w].timed = 0;
    }
    k = &set[w];
    if (k->timed < CT_GPU_SAMPLE_K) {
        k->timed++;
        k->left = ct_gpu_sample_n;
        return 1;
    }
    if (--k->left != 0)
        return 0;
    k->left = ct_gpu_sample_n;
    return 1;
}

/* cuLaunchKernelEx: time it unless it is a programmatic dependent launch, whose overlap with the kernel
 * before it an event between them would take away. */
static inline int ct_gpu_timeable(const CUlaunchConfig *config)
{
    for (unsigned i = 0; config && config->attrs && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if ((a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
             a->value.programmaticStreamSerializationAllowed) ||
            a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
            return 0;
    }
    return 1;
}

/* A per-thread variant's stream: its 0 is the calling thread's default stream. */
static inline CUstream ct_gpu_pt_stream(CUstream s) { return s ? s : CU_STREAM_PER_THREAD; }

struct ct_gpu_pair;
/* Both inside the trampoline's ct_busy window.  ct_gpu_begin: the start event, recorded on `stream` in the
 * current context; NULL when the call is not timed after all (no context, the stream is being captured, no
 * free event, the driver refused: counted in ct_gpu_counts).  Then exactly one of: ct_gpu_end_* once the
 * call returned r (not timed unless r is CUDA_SUCCESS and the call's record was kept), with the payload its
 * span repeats; ct_gpu_drop when there is no record. */
struct ct_gpu_pair *ct_gpu_begin(uint16_t api_id, CUstream stream);
/* Right after the call returned: when its work was submitted by (gpu_collect.c, place). */
void ct_gpu_returned(struct ct_gpu_pair *p);
void ct_gpu_end_launch(struct ct_gpu_pair *p, CUresult r, const struct ct_pl_launch *pl);
void ct_gpu_end_copy(struct ct_gpu_pair *p, CUresult r, const struct ct_pl_copy *pl);
void ct_gpu_drop(struct ct_gpu_pair *p);

#endif
