/* Recorder benchmark: prints figures, passes no judgement (see the targets).
 *   1. ns per record on the hot path: ct_rec_begin + ct_rec_fill_call + commit, without and with the two
 *      ct_now_ns() reads of a trampoline; median of 15 batches of 50,000 (each batch fits the default ring,
 *      which is flushed between batches, untimed);
 *   2. sustained rate from 1, 2 and 8 threads recording flat out for 1 s with the writer on (kept and lost);
 *   3. one thread paced at 2 million records/s for 5 s with default settings: records lost;
 *   4. ns per GPU span queued as CUPTI's collector queues them (batches of 256, 32,768 spans a collection,
 *      each collection then drained and written as the writer's thread does, untimed), in the thread's CPU
 *      time: median of 15 collections.
 * Usage: recorder_bench [DIR] (trace files go to DIR, else to a temporary directory removed at the end). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/drain.h"
#include "recorder/gpu.h"
#include "recorder/recorder.h"
#include "recorder/settings.h"
#include "quantile.h"

#define BATCH 50000
#define ROUNDS 15

/* One call record, as a trampoline makes it; returns 0 when it was dropped. */
static inline int one(uint64_t t0, uint64_t t1, size_t payload)
{
    struct ct_rec_call *c = ct_rec_begin(sizeof *c + payload);
    if (!c)
        return 0;
    ct_rec_fill_call(c, sizeof *c + payload, 0, 0, 0, t0, t1);
    ct_rec_commit(c);
    return 1;
}

static double median(double *v)
{
    bench_sort(v, ROUNDS);
    return bench_quantile(v, ROUNDS, 0.5);
}

static double hot_path(int with_clock, size_t payload)
{
    double ns[ROUNDS];

    for (int r = 0; r < ROUNDS; r++) {
        ct_rec_flush();
        uint64_t start = ct_now_ns();
        for (int i = 0; i < BATCH; i++) {
            uint64_t t0 = with_clock ? ct_now() : (uint64_t)i;
            uint64_t t1 = with_clock ? ct_now() : (uint64_t)i + 1;
            one(t0, t1, payload);
        }
        ns[r] = (double)(ct_now_ns() - start) / BATCH;
    }
    return median(ns);
}

/* Two reads of the record clock (ct_now: the TSC where the kernel uses it), or of clock_gettime. */
static double clock_pair(int record_clock)
{
    double ns[ROUNDS];
    volatile uint64_t sink = 0;

    for (int r = 0; r < ROUNDS; r++) {
        uint64_t s = ct_now_ns();
        for (int i = 0; i < BATCH; i++)
            sink += record_clock ? ct_now() + ct_now() : ct_now_ns() + ct_now_ns();
        ns[r] = (double)(ct_now_ns() - s) / BATCH;
    }
    (void)sink;
    return median(ns);
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The collector's side of GPU spans (src/gputime/activity.c): ct_gpu_queue_many of batches of 256, in the
 * thread's CPU time (page faults included, another process's turns not). */
static double gpu_queue(void)
{
    enum { SPANS = 32768, BATCH_SPANS = 256 };
    static struct ct_rec_gpu batch[BATCH_SPANS];
    double ns[ROUNDS];

    for (int i = 0; i < BATCH_SPANS; i++) {
        ct_put_hdr(&batch[i].h, CT_REC_GPU, sizeof batch[i], 0);
        batch[i].start_ns = (uint64_t)i, batch[i].end_ns = (uint64_t)i + 1;
    }
    for (int r = 0; r < ROUNDS; r++) {
        if (ct_drain_acquire(-1)) { /* as the writer's thread drains: the queue taken and written */
            ct_drain_all(0, 0);
            ct_drain_release();
        }
        uint64_t start = thread_cpu_ns();
        for (int i = 0; i < SPANS; i += BATCH_SPANS)
            ct_gpu_queue_many(batch, BATCH_SPANS);
        ns[r] = (double)(thread_cpu_ns() - start) / SPANS;
    }
    ct_rec_flush();
    return median(ns);
}

static _Atomic int go, stop_all;
static _Atomic uint64_t kept_total, lost_total;

static void *flat_out(void *arg)
{
    uint64_t kept = 0, lost = 0;
    (void)arg;
    while (!atomic_load_explicit(&go, memory_order_acquire)) {
    }
    while (!atomic_load_explicit(&stop_all, memory_order_relaxed)) {
        for (int i = 0; i < 1000; i++) {
            uint64_t t = ct_now_ns();
            if (one(t, t + 1, 0))
                kept++;
            else
                lost++;
        }
    }
    atomic_fetch_add(&kept_total, kept);
    atomic_fetch_add(&lost_total, lost);
    return NULL;
}

static void sustained(int threads)
{
    pthread_t t[64];

    ct_rec_flush();
    atomic_store(&go, 0);
    atomic_store(&stop_all, 0);
    atomic_store(&kept_total, 0);
    atomic_store(&lost_total, 0);
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, flat_out, NULL);
    uint64_t start = ct_now_ns();
    atomic_store(&go, 1);
    usleep(1000000);
    atomic_store(&stop_all, 1);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    double s = (double)(ct_now_ns() - start) / 1e9;
    uint64_t k = atomic_load(&kept_total), l = atomic_load(&lost_total);
    printf("  %d thread%s: %6.2f M records/s kept, %6.2f M/s offered, %5.1f%% lost\n", threads,
           threads > 1 ? "s" : " ", (double)k / s / 1e6, (double)(k + l) / s / 1e6,
           100.0 * (double)l / (double)(k + l ? k + l : 1));
}

static void paced(double rate, double seconds)
{
    uint64_t start, made = 0, kept = 0, total = (uint64_t)(rate * seconds);

    ct_rec_flush();
    start = ct_now_ns();
    while (made < total) {
        uint64_t now = ct_now_ns(), due = (uint64_t)((double)(now - start) * rate / 1e9);
        if (due > total)
            due = total;
        for (; made < due; made++)
            kept += (uint64_t)one(now, now + 1, 0);
    }
    double s = (double)(ct_now_ns() - start) / 1e9;
    printf("  %.1f M records/s for %.1f s (one thread): %llu made in %.2f s, %llu lost\n", rate / 1e6, seconds,
           (unsigned long long)made, s, (unsigned long long)(made - kept));
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/ct-bench-XXXXXX", out[4200], cmd[64];
    const char *where = argc > 1 ? argv[1] : mkdtemp(dir);
    const char *flush = getenv("CUDATRACE_FLUSH_MS");

    if (!where)
        return 1;
    snprintf(out, sizeof out, "%s/bench-%%p.ctrace", where);
    setenv("CUDATRACE_OUTPUT", out, 1);
    setenv("CUDATRACE_QUIET", "1", 1);
    if (!ct_rec_enabled())
        return 1;
    one(0, 0, 0); /* the thread's ring */

    printf("recorder hot path (median of %d batches of %d records):\n", ROUNDS, BATCH);
    printf("  begin+fill+commit, 48-byte call:           %6.1f ns/record\n", hot_path(0, 0));
    printf("  begin+fill+commit, call + 64-byte payload: %6.1f ns/record\n", hot_path(0, 64));
    printf("  the same with ct_now() x2, 48 bytes:       %6.1f ns/record\n", hot_path(1, 0));
    printf("  ct_now() x2 alone (record clock: %s):   %6.1f ns\n",
           ct_clock_mode == CT_CLOCK_TSC ? "tsc " : "mono", clock_pair(1));
    printf("  clock_gettime(MONOTONIC) x2 alone:         %6.1f ns\n", clock_pair(0));
    printf("  GPU span queued by a collector (CPU time): %6.1f ns/span\n", gpu_queue());
    char dflt_buffer[16], dflt_flush[16];
    snprintf(dflt_buffer, sizeof dflt_buffer, "%uM", (unsigned)(CT_DEFAULT_BUFFER_SIZE >> 20));
    snprintf(dflt_flush, sizeof dflt_flush, "%u", CT_DEFAULT_FLUSH_MS);
    printf("sustained, flat out for 1 s, writer on (%s buffers, %s ms interval):\n",
           getenv("CUDATRACE_BUFFER_SIZE") ? getenv("CUDATRACE_BUFFER_SIZE") : dflt_buffer, flush ? flush : dflt_flush);
    sustained(1);
    sustained(2);
    sustained(8);
    printf("paced:\n");
    paced(2e6, 5.0);
    ct_rec_shutdown();
    if (argc <= 1) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        return system(cmd) == 0 ? 0 : 1;
    }
    return 0;
}
