#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudatrace/format.h"
#include "recorder/clock.h"
#include "recorder/hot.h"
#include "recorder/settings.h"
#include "recorder/warn.h"


/* Calibration: ns = base_ns + (ticks - base_ticks) * ns_per_tick, piecewise: each drain's CLOCK record
 * covers the ticks since the previous drain's pair, from that pair (the base) to its own (the slope).  Each
 * pair starts one piece and ends the one before, so the conversion is continuous and rising: a thread's
 * calls converted with two drains' records never go back in time, as they could with one slope measured
 * anew from the first pair over a span that grows (the first over a millisecond: coarse). */
static uint64_t base_ticks, base_ns; /* where the current piece starts */
static uint64_t last_ticks, last_ns; /* the latest pair: where the next piece starts */
static double ns_per_tick;
static int calibrated;

/* The kernel trusts the TSC as its clocksource: CLOCK_MONOTONIC is then a linear function of it,
 * synchronized across CPUs (constant and nonstop TSC), so a linear conversion is exact up to NTP slew. */
static int kernel_uses_tsc(void)
{
    char buf[32] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");

    if (!f)
        return 0;
    if (!fgets(buf, sizeof buf, f))
        buf[0] = 0;
    fclose(f);
    return strcmp(buf, "tsc\n") == 0;
}

#if defined(__x86_64__)
/* A (ticks, ns) pair read as close together as possible: of a few tries, the one that took the fewest
 * ticks (a try the scheduler interrupted would put the pair off by as long as it was away). */
static void pair(uint64_t *ticks, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;

    for (int i = 0; i < 4; i++) {
        uint64_t a = __rdtsc(), n = ct_now_ns(), b = __rdtsc();
        if (b - a < best) {
            best = b - a;
            *ns = n;
            *ticks = a + (b - a) / 2;
        }
    }
}
#endif

/* Once per process: the mode, and for the TSC the base pair, stored before the mode is published so a
 * drain never converts with a base that is not there yet. */
static void choose(void)
{
    const char *v = ct_env("CUDATRACE_CLOCK");
    int want_tsc = 1, mode = CT_CLOCK_MONO;

    if (v && *v && strcmp(v, "auto") != 0) {
        if (strcmp(v, "monotonic") == 0)
            want_tsc = 0;
        else if (strcmp(v, "tsc") != 0)
            ct_warn("CUDATRACE_CLOCK=\"%s\" is not auto, tsc or monotonic; using auto", v);
    }
#if defined(__x86_64__)
    if (want_tsc && kernel_uses_tsc()) {
        pair(&base_ticks, &base_ns);
        last_ticks = base_ticks;
        last_ns = base_ns;
        mode = CT_CLOCK_TSC;
    }
#else
    (void)want_tsc;
#endif
    __atomic_store_n(&ct_clock_mode, mode, __ATOMIC_RELEASE);
}

uint64_t ct_clock_slow(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;

    pthread_once(&once, choose);
    return ct_now();
}

void ct_clock_calibrate(void)
{
#if defined(__x86_64__)
    uint64_t t, ns;

    if (__atomic_load_n(&ct_clock_mode, __ATOMIC_ACQUIRE) != CT_CLOCK_TSC)
        return;
    /* A piece shorter than 1 ms would have a coarse slope: a drain sooner than that after the last pair
     * keeps the current piece, and a short program's only drain waits for it once. */
    pair(&t, &ns);
    if (calibrated && ns - last_ns < 1000000u)
        return;
    while (ns - last_ns < 1000000u)
        pair(&t, &ns);
    base_ticks = last_ticks;
    base_ns = last_ns;
    ns_per_tick = (double)(ns - base_ns) / (double)(t - base_ticks);
    last_ticks = t;
    last_ns = ns;
    calibrated = 1;
#endif
}

int ct_clock_get(struct ct_rec_clock *c)
{
    if (__atomic_load_n(&ct_clock_mode, __ATOMIC_ACQUIRE) != CT_CLOCK_TSC)
        return 0;
    if (!calibrated)
        ct_clock_calibrate();
    c->base_ticks = base_ticks;
    c->base_ns = base_ns;
    c->ns_per_tick = ns_per_tick;
    return 1;
}

uint64_t ct_clock_ns(uint64_t ticks)
{
    struct ct_rec_clock c;
    return ct_clock_get(&c) ? ct_clock_ticks_to_ns(ticks, &c) : ticks;
}
