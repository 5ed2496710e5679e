/* Capture ranges (capture.h): the gate and what flips it. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>

#include "preload/capture.h"
#include "preload/hooks.h"
#include "preload/interpose.h"
#include "preload/trampoline.h"
#include "recorder/apis.h"
#include "recorder/hot.h"
#include "recorder/recorder.h"
#include "recorder/settings.h"

static struct ct_capture_spec spec; /* CUDATRACE_CAPTURE */
static _Atomic int nvtx_open;       /* NVTX capture ranges open now, all threads */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void capture_read(void)
{
    ct_attach();
    ct_settings_capture(&spec);
    if (spec.mode != CT_CAPTURE_ALL)
        ct_rec_ranges_only(spec.mode == CT_CAPTURE_NVTX);
    __atomic_store_n(&ct_gate, (spec.mode != CT_CAPTURE_ALL ? CT_GATE_CAPTURE : 0) | (ct_apis_init() ? CT_GATE_FILTER : 0),
                     __ATOMIC_RELAXED);
}

void ct_capture_init(void) { pthread_once(&once, capture_read); }

void ct_counted_start(void)
{
    ct_busy_enter();
    ct_rec_init();
    ct_busy_leave();
}

void ct_counted_failed(unsigned id, CUresult r)
{
    ct_busy_enter();
    const uint64_t t = ct_now();
    struct ct_rec_call *c = ct_rec_call_begin(sizeof *c, (uint16_t)id, CT_FAM_NONE, r, t, t);
    if (c) {
        c->stack_id = ct_stack_id(ct_variants[id].family);
        ct_rec_commit(c);
    }
    ct_busy_leave();
}

__attribute__((constructor)) static void capture_ctor(void) { ct_capture_init(); }

/* Whatever the driver answers: the program asked for a range (without a profiler attached the driver may
 * refuse, and the range is what the user wants traced all the same). */
void ct_hook_cuProfilerStart(CUresult r)
{
    (void)r;
    if (spec.mode == CT_CAPTURE_PROFILER) {
        __atomic_fetch_and(&ct_gate, ~CT_GATE_CAPTURE, __ATOMIC_RELAXED);
        ct_gpu_capture(1);
    }
}

void ct_hook_cuProfilerStop(CUresult r)
{
    (void)r;
    if (spec.mode == CT_CAPTURE_PROFILER) {
        __atomic_fetch_or(&ct_gate, CT_GATE_CAPTURE, __ATOMIC_RELAXED);
        ct_gpu_capture(0);
    }
}

const struct ct_capture_spec *ct_capture_nvtx(void)
{
    ct_capture_init();
    return spec.mode == CT_CAPTURE_NVTX ? &spec : NULL;
}

/* GPU time follows the range (gputime.h); an NVTX callback is not inside the trampolines' guard. */
static void gpu_capture(int on)
{
    ct_guard++;
    ct_gpu_capture(on);
    ct_guard--;
}

void ct_capture_nvtx_open(void)
{
    if (atomic_fetch_add(&nvtx_open, 1) == 0) {
        __atomic_fetch_and(&ct_gate, ~CT_GATE_CAPTURE, __ATOMIC_RELAXED);
        gpu_capture(1);
    }
}

void ct_capture_nvtx_close(void)
{
    if (atomic_fetch_sub(&nvtx_open, 1) == 1) {
        __atomic_fetch_or(&ct_gate, CT_GATE_CAPTURE, __ATOMIC_RELAXED);
        gpu_capture(0);
    }
}
