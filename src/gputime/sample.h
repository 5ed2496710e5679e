/* GPU time's sampling (CUDATRACE_GPU_TIME=sample, events only): which calls of a thread are timed.  Per
 * thread and kind, no lock; the trampoline asks ct_gpu_choose before ct_gpu_begin. */
#ifndef CT_GPUTIME_SAMPLE_H
#define CT_GPUTIME_SAMPLE_H

#include <stdint.h>

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
/* A launch's kind.  name_gen is the kernel names' generation (preload/kernel_names.h): a handle freed by a
 * module unload and given to another kernel is another kind. */
static inline uint64_t ct_gpu_key_launch(unsigned api_id, const void *fn, uint32_t name_gen, unsigned gx, unsigned gy,
                                         unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
    uint64_t h = ct_gpu_mix(api_id, (uint64_t)(uintptr_t)fn ^ (uint64_t)name_gen << 48);
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

/* What ct_gpu_choose answers: not timed, timed for itself (all mode; a kind's first timings), or timed as
 * the one of ct_gpu_sample_n calls that stands for them all (its span says so: a reader weighs it by N, so
 * that averages do not over-weigh the first timings of each kind, which pay for warm-up). */
enum { CT_GPU_PICK_NONE = 0, CT_GPU_PICK_ONE = 1, CT_GPU_PICK_SAMPLE = 2 };

/* Time this call?  all: every one.  sample: the first CT_GPU_SAMPLE_K calls of its kind on this thread, then
 * one in ct_gpu_sample_n.  Only when ct_gpu_mode is not off (the trampoline tests that first), inside
 * ct_busy (a thread's first call makes its table). */
static inline int ct_gpu_choose(uint64_t key)
{
    struct ct_gpu_kind *t = ct_gpu_kinds, *k = NULL;

    if (ct_gpu_mode == CT_GPU_ALL || (!t && !(t = ct_gpu_kinds_make())))
        return CT_GPU_PICK_ONE;
    struct ct_gpu_kind *set = &t[(key ^ key >> 32) % CT_GPU_SETS * CT_GPU_WAYS];
    /* Its way, else the first empty one (key 0): ways fill in order and are never emptied, so a kind is
     * never found past an empty way. */
    for (unsigned w = 0; w < CT_GPU_WAYS && !k; w++)
        if (set[w].key == key || set[w].key == 0)
            k = &set[w];
    if (!k) { /* a new kind in a full set: 1 in N of such calls */
        if (ct_gpu_overflow_left > 1) {
            ct_gpu_overflow_left--;
            return CT_GPU_PICK_NONE;
        }
        ct_gpu_overflow_left = ct_gpu_sample_n;
        return CT_GPU_PICK_SAMPLE;
    }
    if (k->key != key) {
        k->key = key;
        k->timed = 0;
    }
    if (k->timed < CT_GPU_SAMPLE_K) {
        k->timed++;
        k->left = ct_gpu_sample_n;
        return CT_GPU_PICK_ONE;
    }
    if (--k->left != 0)
        return CT_GPU_PICK_NONE;
    k->left = ct_gpu_sample_n;
    return CT_GPU_PICK_SAMPLE;
}

#endif
