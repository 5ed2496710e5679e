/* The clock of the hot path.  A trampoline reads ct_now() twice per call; on x86-64 with the kernel's
 * clocksource on the TSC that is a bare rdtsc (about half the cost of a vDSO clock_gettime), and the
 * drain converts ticks to CLOCK_MONOTONIC ns before records reach the file (ct_clock_fix), so the
 * format and every reader only ever see ns.  Elsewhere ticks are ns and the conversion is the identity.
 * CUDATRACE_CLOCK=monotonic forces clock_gettime. */
#ifndef CT_PRELOAD_CLOCK_H
#define CT_PRELOAD_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "cudatrace/format.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* CLOCK_MONOTONIC in ns: the clock of every record in a trace file. */
static inline uint64_t ct_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

enum ct_clock_mode { CT_CLOCK_UNSET = 0, CT_CLOCK_TSC = 1, CT_CLOCK_MONO = 2 };
extern int ct_clock_mode;

/* Decide the mode (first use); returns the current time in this mode's ticks. */
uint64_t ct_clock_slow(void);

/* Ticks of the record clock: stored in call and LOST records by producers.  Always inlined: wrappers.c is
 * large enough that the compiler would otherwise make it a call in every trampoline. */
static inline __attribute__((always_inline)) uint64_t ct_now(void)
{
#if defined(__x86_64__)
    if (__builtin_expect(__atomic_load_n(&ct_clock_mode, __ATOMIC_RELAXED) == CT_CLOCK_TSC, 1))
        return __rdtsc();
#endif
    if (__atomic_load_n(&ct_clock_mode, __ATOMIC_RELAXED) == CT_CLOCK_MONO)
        return ct_now_ns();
    return ct_clock_slow();
}

/* Drain side (the drain holder only): refresh the tick->ns calibration; read it; convert. */
void ct_clock_calibrate(void);
struct ct_clock_cal {
    int tsc; /* 0: record times are already ns */
    uint64_t base_ticks, base_ns;
    double slope; /* ns per tick */
};
void ct_clock_get(struct ct_clock_cal *cal);
uint64_t ct_clock_ns(uint64_t ticks);

static inline uint64_t ct_clock_to_ns(uint64_t ticks, const struct ct_clock_cal *cal)
{
    /* Signed: a record read on another CPU a hair before the base pair must not wrap around. */
    return cal->base_ns + (uint64_t)(int64_t)((double)(int64_t)(ticks - cal->base_ticks) * cal->slope);
}

/* Rewrite the times of one record (call or LOST) from ticks to ns: the consumer does it in its walk over
 * the published records (ct_ring_spans), before they reach the file. */
static inline void ct_clock_fix(struct ct_rec_hdr *h, const struct ct_clock_cal *cal)
{
    if (h->type == CT_REC_CALL) {
        struct ct_rec_call *c = (struct ct_rec_call *)h;
        c->t0_ns = ct_clock_to_ns(c->t0_ns, cal);
        c->t1_ns = ct_clock_to_ns(c->t1_ns, cal);
    } else if (h->type == CT_REC_LAUNCH_REPEAT) {
        struct ct_rec_launch_repeat *p = (struct ct_rec_launch_repeat *)h;
        uint64_t t0 = ct_clock_to_ns(p->t0_ns, cal), t1 = ct_clock_to_ns(p->t0_ns + p->dur_ns, cal);
        p->t0_ns = t0;
        p->dur_ns = t1 - t0 > UINT32_MAX ? UINT32_MAX : (uint32_t)(t1 - t0); /* producers keep it far below */
    } else if (h->type == CT_REC_LOST) {
        struct ct_rec_lost *l = (struct ct_rec_lost *)h;
        l->t_first_ns = ct_clock_to_ns(l->t_first_ns, cal);
        l->t_last_ns = ct_clock_to_ns(l->t_last_ns, cal);
    }
}

#endif
