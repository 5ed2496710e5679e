/* The clock of the hot path.  A trampoline reads ct_now() twice per call; on x86-64 with the kernel's
 * clocksource on the TSC that is a bare rdtsc (about half the cost of a vDSO clock_gettime).  Call records
 * reach the file in ticks, after a CT_REC_CLOCK record that tells readers how to make them CLOCK_MONOTONIC
 * ns (format.h); every other time the tracer writes is ns.  Elsewhere ticks are ns and there is no clock
 * record.
 * CUDATRACE_CLOCK=monotonic forces clock_gettime. */
#ifndef CT_RECORDER_CLOCK_H
#define CT_RECORDER_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "cudatrace/format.h"
#include "recorder/hot.h"

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

enum ct_clock_kind { CT_CLOCK_UNSET = 0, CT_CLOCK_TSC = 1, CT_CLOCK_MONO = 2 };
#define ct_clock_mode (ct_hot.clock_mode) /* hot.h: an enum ct_clock_kind */

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

/* Drain side (the drain holder only): refresh the tick->ns calibration; read it as the CT_REC_CLOCK record
 * that tells readers how to convert (returns 0, leaving *c alone, when ticks are ns); convert one time. */
void ct_clock_calibrate(void);
int ct_clock_get(struct ct_rec_clock *c);
uint64_t ct_clock_ns(uint64_t ticks);

#endif
