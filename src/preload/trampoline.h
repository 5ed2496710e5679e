/* What a generated trampoline (wrappers.c, from scripts/gen-wrappers.py) needs: its real function, the
 * re-entrancy guard and the recorder.  Kept small: this is the hot path. */
#ifndef CT_PRELOAD_TRAMPOLINE_H
#define CT_PRELOAD_TRAMPOLINE_H

#include "cuda/api.h"

#include <stddef.h>
#include <stdint.h>

#include "preload/capture.h"
#include "preload/decode_launch.h"
#include "gputime/gputime.h"
#include "preload/kernel_names.h"
#include "preload/wrappers.h"
#include "recorder/export.h"
#include "recorder/hot.h"
#include "recorder/recorder.h"
#include "recorder/recorder_hot.h"
#include "recorder/stacks.h"

/* Real driver function of each variant (by api id), NULL until the driver is found (ct_resolve). */
extern void *ct_real[];
#define CT_REAL(id) __atomic_load_n(&ct_real[id], __ATOMIC_ACQUIRE)

/* Non-zero while this thread runs tracer code: a trampoline's recording (from the driver's return to the
 * record's commit), or tracer code that calls the driver or dlsym.  A driver call made meanwhile on the
 * same thread passes through untraced: the tracer's own, or a signal handler's that interrupted the tracer,
 * which must not touch the half-made record, the thread's launch shapes or a lock its thread holds (the
 * recorder counts it lost instead).  initial-exec: the library is preloaded, so its TLS is static and a
 * read is one load. */
extern __thread int ct_guard __attribute__((tls_model("initial-exec")));

/* The trampoline's recording window.  The signal fences keep the compiler from moving the recording's
 * loads and stores out of it (a handler runs on this thread between any two instructions). */
static inline __attribute__((always_inline)) void ct_busy_enter(void)
{
    ct_guard++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
static inline __attribute__((always_inline)) void ct_busy_leave(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    ct_guard--;
}

/* A call that found ct_guard set and passes through: inside a capture range a call the tracer could not
 * record, counted lost (reason nested).  The tracer's own calls go to the real driver functions, not to
 * trampolines, so what comes here is a program's call from a signal handler. */
static inline void ct_guard_passed(void)
{
    if (!(ct_gate & CT_GATE_CAPTURE))
        ct_rec_nested();
}

/* The first recorder start may come from a counted call (a program whose calls are all counted still gets
 * its file and counts). */
void ct_counted_start(void);
/* A counted call that failed: recorded in full, with its result, at the time of its return (both times are
 * the one clock read after it: capture.c). */
void ct_counted_failed(unsigned id, CUresult r);

/* What a trampoline that found ct_gate or its variant's ct_api_skip byte set (ct_guard clear) does. */
enum { CT_PASS_RECORD = 0, CT_PASS_CAPTURE = 1, CT_PASS_COUNTED = 2 };

/* Outside a capture range, CT_PASS_CAPTURE: passed on; counted, not timed (the default set, or
 * CUDATRACE_APIS: recorder/apis.h), CT_PASS_COUNTED; else CT_PASS_RECORD: recorded. */
static inline __attribute__((always_inline)) int ct_unrecorded(unsigned id)
{
    if (ct_gate & CT_GATE_CAPTURE)
        return CT_PASS_CAPTURE;
    return ct_api_skip[id] ? CT_PASS_COUNTED : CT_PASS_RECORD;
}

/* Variant `id`'s call, passed on as ct_unrecorded said (`how`), returned r; returns r.  A counted call that
 * succeeded adds one to its variant's count (a relaxed atomic add: threads share the counter; no lock, no
 * system call); one that failed is recorded, so that no error goes unseen. */
static inline __attribute__((always_inline)) CUresult ct_passed(unsigned id, int how, CUresult r)
{
    if (how != CT_PASS_COUNTED)
        return r;
    if (__builtin_expect(r != CUDA_SUCCESS, 0)) {
        ct_counted_failed(id, r);
        return r;
    }
    atomic_fetch_add_explicit(&ct_api_counted[id], 1, memory_order_relaxed);
    if (__builtin_expect(atomic_load_explicit(&ct_state, memory_order_relaxed) == CT_ST_UNINIT, 0))
        ct_counted_start();
    return r;
}

/* Slow path of a trampoline whose real function is not known yet: find the driver, then return the real
 * function of variant `id`, or NULL when the driver cannot be loaded or does not export it. */
void *ct_resolve(unsigned id);
/* What a trampoline returns when it has no real function to call. */
CUresult ct_missing(unsigned id);

#endif
