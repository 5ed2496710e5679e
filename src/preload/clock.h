/* The clock of the hot path.  A trampoline reads ct_now() twice per call; on x86-64 with the kernel's
 * clocksource on the TSC that is a bare rdtsc (about half the cost of a vDSO clock_gettime), and the
 * drain converts ticks to CLOCK_MONOTONIC ns before records reach the file (ct_clock_convert), so the
 * format and every reader only ever see ns.  Elsewhere ticks are ns and the conversion is the identity.
 * CUDATRACE_CLOCK=monotonic forces clock_gettime. */
#ifndef CT_PRELOAD_CLOCK_H
#define CT_PRELOAD_CLOCK_H

#include <stdint.h>
#include <sys/uio.h>
#include <time.h>

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

/* Ticks of the record clock: stored in call and LOST records by producers. */
static inline uint64_t ct_now(void)
{
#if defined(__x86_64__)
    if (__builtin_expect(__atomic_load_n(&ct_clock_mode, __ATOMIC_RELAXED) == CT_CLOCK_TSC, 1))
        return __rdtsc();
#endif
    if (__atomic_load_n(&ct_clock_mode, __ATOMIC_RELAXED) == CT_CLOCK_MONO)
        return ct_now_ns();
    return ct_clock_slow();
}

/* Drain side (the drain holder only): refresh the tick->ns calibration, then rewrite the times of the
 * records in `iov` (whole records, as ct_ring_spans gives them) from ticks to ns. */
void ct_clock_calibrate(void);
uint64_t ct_clock_ns(uint64_t ticks);
void ct_clock_convert(const struct iovec *iov, int n);

#endif
