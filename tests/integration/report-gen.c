/* Writes synthetic trace files whose calls are known exactly, record by record per
 * include/cudatrace/format.h (with src/format's record builders), so the report's tests need neither the
 * preload nor a driver.
 *
 *   report-gen parent FILE      the scenario of report-summary.sh: two threads, allocations freed across
 *                               threads, copies, sets, kernels (one C++ mangled), an OUT_OF_MEMORY error,
 *                               a lost record, untraced pointers; records out of time order between
 *                               threads and names defined after their first use; times in ticks after
 *                               a clock record from the main thread's first launch on, the second
 *                               launch a 16-byte repeat of the first
 *   report-gen child FILE       a child process of the same host (merged with the parent)
 *   report-gen big N FILE       N calls over 4 threads in blocks of 4096, a mix of every family (bench)
 *   report-gen threads N FILE   N thread ids with one call each, every 16th a launch that fills a shape
 *                               slot, in scrambled time order (a report's cost per thread)
 *   report-gen stacks M S F FILE  M modules and S distinct stacks of F frames spread over them, one
 *                               allocation per stack (the stacks report's cost per module and frame)
 *   report-gen files N DIR      N small files DIR/rank-NNNNN.ctrace of one host, two threads of 64 calls
 *                               each (a report's cost per file)
 *   report-gen bigranks N C DIR N files DIR/rank-NNNNN.ctrace of `big C`, each its own process and rank on
 *                               two hosts, with an END record (parallel and partial summaries)
 *   report-gen gpu FILE         GPU time (format 5), sampled: kernels A (three shapes, some launches
 *                               untimed, one shape never timed), B (every launch timed, per-thread
 *                               stream), C (never timed), a graph, a host function and a failed launch
 *                               (neither counted), copies H2D (two size classes), D2H (device 1) and
 *                               sets, with known GPU durations; spans out of sequence order, a worker
 *                               thread's too; gpu-info records at start and end (report-gpu.sh)
 *   report-gen gpuoff FILE      a format-5 trace whose GPU time was off: one launch, a gpu-info record
 *   report-gen gpuact FILE      GPU time (format 8) from CUPTI's activity records, then from events after
 *                               the program took CUPTI: a graph's kernels each a span, a span without a
 *                               call, a launch whose record was lost (report-gpu.sh)
 *   report-gen gpubig N FILE    N launches of 4 kernels on one thread, every one timed (GPU time all):
 *                               the join's cost
 *   report-gen kernels N FILE   N distinct kernel names (C++ templates, 37 bytes mangled), each launched
 *                               once on one thread with its GPU span (GPU time all): the report's cost
 *                               per kernel name
 *   report-gen streams N FILE   N streams, three timed launches on each (the HTML timeline's rows)
 *   report-gen nocall FILE      CUPTI's records of three launches and of a kernel of no call between two of
 *                               them, in the GPU's idle time (analyze-rules.sh)
 *   report-gen late FILE        two launches 2^60 ns apart: a time past what an analyze partial holds
 *   report-gen early FILE       the same process with only the first of them
 *   report-gen lateend FILE     the same with only the first, and an END record 2^60 ns from boot
 *   report-gen escapes FILE     names with terminal control characters in them (thread, kernel, API, NVTX
 *                               message, host, command line, module path), as a hostile program can make
 *                               them (report-escapes.sh)
 *   report-gen markup FILE      the same calls, the names with HTML markup and script in them, each of
 *                               which would set data-pwned on the page's body if not escaped (report-html.sh)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudatrace/format.h"
#include "format/record.h"

#define START_MONO 1000000000LL
#define START_WALL 1700000000000000000LL

static FILE *out;

static void put(const void *rec, size_t size)
{
    if (fwrite(rec, 1, size, out) != size) {
        perror("report-gen: write");
        exit(1);
    }
}

/* REPORT_GEN_START_WALL (ns since 1970) moves the processes' wall-clock starts: a trace of another year. */
static int64_t start_wall(void)
{
    const char *v = getenv("REPORT_GEN_START_WALL");
    return v && *v ? strtoll(v, NULL, 10) : START_WALL;
}

static void header_with(uint32_t pid, uint32_t ppid, int64_t mono, uint32_t features)
{
    struct ct_file_header h;
    ct_file_header_init(&h, pid, ppid, CT_FEAT_TIME_MONO | features, start_wall() + (mono - START_MONO), mono);
    put(&h, sizeof h);
}

static void header(uint32_t pid, uint32_t ppid, int64_t mono) { header_with(pid, ppid, mono, 0); }

static void process(const char *host, const char *cmdline, size_t cmdlen)
{
    unsigned char rec[512];
    size_t size = ct_size_process(strlen(host), cmdlen);
    ct_put_process(rec, host, strlen(host), cmdline, cmdlen);
    put(rec, size);
}

static void api(uint16_t id, const char *name, const char *variant, uint16_t vflags, uint32_t family)
{
    unsigned char rec[256];
    ct_put_api(rec, id, name, variant, 3020, vflags, family);
    put(rec, ct_size_api(strlen(name), strlen(variant)));
}

static void string(uint32_t tid, uint32_t id, unsigned kind, const char *s)
{
    unsigned char rec[256];
    ct_put_string(rec, tid, id, kind, s, strlen(s));
    put(rec, ct_size_string(strlen(s)));
}

static void thread_name(uint32_t tid, uint32_t name_id)
{
    struct ct_rec_thread r = {.name_id = name_id};
    ct_put_hdr(&r.h, CT_REC_THREAD, sizeof r, tid);
    put(&r, sizeof r);
}

static uint64_t seq;
static uint64_t ticks_per_ns = 1; /* > 1 after clock_in_ticks */
static uint32_t call_stack;       /* the stack_id call() gives its calls */

/* From here call times are written as the recorder writes them on the TSC: ticks, after a CT_REC_CLOCK that
 * turns them back into the same ns. */
static void clock_in_ticks(void)
{
    struct ct_rec_clock k = {.base_ticks = 0, .base_ns = 0, .ns_per_tick = 0.25};
    ct_put_hdr(&k.h, CT_REC_CLOCK, sizeof k, 0);
    put(&k, sizeof k);
    ticks_per_ns = 4;
}

/* A call at `t0` ns after START_MONO lasting `dur`, with an optional payload; a launch may name the
 * thread's launch slot `shape` (format.h, launch shapes), 0 for none. */
static void call(uint32_t tid, uint16_t api_id, int32_t result, int64_t t0, int64_t dur, unsigned family,
                 const void *pl, uint8_t shape)
{
    unsigned char rec[sizeof(struct ct_rec_call) + sizeof(struct ct_pl_copy)];
    size_t plsize = ct_payload_size(family);
    struct ct_rec_call c = {.api_id = api_id, .payload = (uint8_t)family, .result = result, .seq = ++seq,
                            .t0_ns = (uint64_t)(START_MONO + t0) * ticks_per_ns,
                            .t1_ns = (uint64_t)(START_MONO + t0 + dur) * ticks_per_ns,
                            .shape = shape, .shape_gen = shape ? 1 : 0, .stack_id = call_stack};
    ct_put_hdr(&c.h, CT_REC_CALL, sizeof c + plsize, tid);
    memcpy(rec, &c, sizeof c);
    if (plsize)
        memcpy(rec + sizeof c, pl, plsize);
    put(rec, sizeof c + plsize);
}

static void alloc(uint32_t tid, uint16_t api_id, int32_t result, int64_t t0, int64_t dur, uint64_t bytes,
                  uint64_t addr, unsigned kind)
{
    struct ct_pl_alloc a = {.bytes = bytes, .address = addr, .kind = kind, .device = 0};
    call(tid, api_id, result, t0, dur, CT_FAM_ALLOC, &a, 0);
}

static void mfree(uint32_t tid, uint16_t api_id, int64_t t0, int64_t dur, uint64_t addr, unsigned kind)
{
    struct ct_pl_free f = {.address = addr, .kind = kind};
    call(tid, api_id, 0, t0, dur, CT_FAM_FREE, &f, 0);
}

static void copy(uint32_t tid, uint16_t api_id, int64_t t0, int64_t dur, uint64_t bytes, unsigned sk, unsigned dk,
                 uint32_t flags)
{
    struct ct_pl_copy p = {.bytes = bytes, .src = flags & CT_COPY_SET ? 0 : 0x1000, .dst = 0x7000010000,
                           .flags = flags, .src_kind = (uint16_t)sk, .dst_kind = (uint16_t)dk,
                           .src_device = -1, .dst_device = -1};
    call(tid, api_id, 0, t0, dur, CT_FAM_COPY, &p, 0);
}

static void launch_of(uint32_t tid, uint16_t api_id, int32_t result, int64_t t0, int64_t dur, uint32_t name_id,
                      unsigned kind, uint64_t function, uint32_t gx, uint32_t bx, uint8_t shape)
{
    struct ct_pl_launch l = {.function = function, .name_id = name_id, .grid = {gx, 1, 1}, .block = {bx, 1, 1},
                             .kind = kind};
    call(tid, api_id, result, t0, dur, CT_FAM_LAUNCH, &l, shape);
}

static void launch(uint32_t tid, uint16_t api_id, int64_t t0, int64_t dur, uint32_t name_id, uint32_t gx,
                   uint32_t bx, uint8_t shape)
{
    launch_of(tid, api_id, 0, t0, dur, name_id, CT_LAUNCH_KERNEL, 0xf00d, gx, bx, shape);
}

/* The launch in slot 1 of thread `tid` again, as the recorder writes it where it can: a 16-byte repeat
 * (format.h, CT_REC_LAUNCH_SHORT) whose api is the slot's, whose seq follows the thread's last call and
 * whose time counts from the slot's last launch, at `since` ns. */
static void launch_again(uint32_t tid, int64_t t0, int64_t dur, int64_t since)
{
    struct ct_rec_launch_short r = {.dt0 = (uint32_t)((t0 - since) * (int64_t)ticks_per_ns),
                                    .dur_slot = (uint32_t)(dur * (int64_t)ticks_per_ns)};
    ct_put_hdr(&r.h, CT_REC_LAUNCH_SHORT, sizeof r, tid);
    seq++;
    put(&r, sizeof r);
}

enum { MAIN = 1000, WORKER = 1001 };
enum { A_INIT, A_ALLOC, A_FREE, A_HTOD, A_DTOH, A_LAUNCH, A_LAUNCH_PTSZ, A_MEMSET, A_ALLOCHOST, A_SYNC, A_DTOD,
       A_GRAPH, A_HOSTFN };

/* The API records of the copies and launches that the parent and gpu scenarios share. */
static void copy_launch_apis(void)
{
    api(A_HTOD, "cuMemcpyHtoD", "cuMemcpyHtoD_v2", 0, CT_FAM_COPY);
    api(A_DTOH, "cuMemcpyDtoH", "cuMemcpyDtoH_v2", 0, CT_FAM_COPY);
    api(A_LAUNCH, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    api(A_LAUNCH_PTSZ, "cuLaunchKernel", "cuLaunchKernel_ptsz", CT_VARIANT_PTSZ, CT_FAM_LAUNCH);
    api(A_MEMSET, "cuMemsetD8", "cuMemsetD8_v2", 0, CT_FAM_COPY);
}
enum { S_MAIN = 1, S_WORKER, S_VECADD, S_SCALE, S_UNTRACED };

static void parent(void)
{
    static const char cmd[] = "./vecadd\0003\0--fast";
    header(1000, 1, START_MONO);
    process("testhost", cmd, sizeof cmd);
    api(A_INIT, "cuInit", "cuInit", 0, CT_FAM_NONE);
    api(A_ALLOC, "cuMemAlloc", "cuMemAlloc_v2", 0, CT_FAM_ALLOC);
    api(A_FREE, "cuMemFree", "cuMemFree_v2", 0, CT_FAM_FREE);
    copy_launch_apis();
    api(A_ALLOCHOST, "cuMemAllocHost", "cuMemAllocHost_v2", 0, CT_FAM_ALLOC);
    api(A_SYNC, "cuCtxSynchronize", "cuCtxSynchronize", 0, CT_FAM_NONE);
    string(MAIN, S_MAIN, CT_STR_THREAD, "main");
    thread_name(MAIN, S_MAIN);
    struct ct_rec_driver d = {.driver_version = 13000, .device_count = 1};
    ct_put_hdr(&d.h, CT_REC_DRIVER, sizeof d, 0);
    put(&d, sizeof d);
    struct ct_rec_device dev = {.ordinal = 0, .total_mem = 80ull << 30, .uuid = {1, 2, 3}};
    strcpy(dev.name, "NVIDIA Test GPU");
    ct_put_hdr(&dev.h, CT_REC_DEVICE, sizeof dev, 0);
    put(&dev, sizeof dev);

    /* The main thread's block: all its calls, including the free of memory the worker allocates at 20000
     * (the worker's block comes later in the file). */
    call(MAIN, A_INIT, 0, 1000, 500, CT_FAM_NONE, NULL, 0);
    alloc(MAIN, A_ALLOC, 0, 2000, 100, 4096, 0x7000000000, CT_MEM_DEVICE);
    alloc(MAIN, A_ALLOC, 0, 3000, 300, 8192, 0x7000010000, CT_MEM_DEVICE);
    alloc(MAIN, A_ALLOC, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, 4000, 50, 1ull << 40, 0, CT_MEM_DEVICE);
    copy(MAIN, A_HTOD, 5000, 1000, 4096, CT_MEM_HOST, CT_MEM_DEVICE, 0);
    copy(MAIN, A_HTOD, 7000, 3000, 4096, CT_MEM_HOST, CT_MEM_DEVICE, 0);
    clock_in_ticks(); /* from here on: read back, the report must see no difference */
    launch(MAIN, A_LAUNCH, 11000, 20, S_VECADD, 4, 256, 1);
    launch_again(MAIN, 12000, 40, 11000); /* in ticks: expanded before it is converted */
    launch(MAIN, A_LAUNCH, 13000, 30, S_VECADD, 8, 128, 0);
    launch(MAIN, A_LAUNCH_PTSZ, 14000, 25, S_SCALE, 16, 64, 0);
    copy(MAIN, A_MEMSET, 15000, 40, 8192, CT_MEM_UNKNOWN, CT_MEM_DEVICE, CT_COPY_SET);
    copy(MAIN, A_DTOH, 16000, 2000, 4096, CT_MEM_DEVICE, CT_MEM_HOST, 0);
    mfree(MAIN, A_FREE, 30000, 60, 0x7000100000, CT_MEM_DEVICE);
    mfree(MAIN, A_FREE, 31000, 70, 0x7000000000, CT_MEM_DEVICE);
    call(MAIN, A_SYNC, 0, 32000, 5000, CT_FAM_NONE, NULL, 0);

    /* Names defined after their first use, as when another thread's block is drained first. */
    string(MAIN, S_VECADD, CT_STR_KERNEL, "vecAdd");
    string(MAIN, S_SCALE, CT_STR_KERNEL, "_Z5scaleIfEvPT_S0_i");

    string(WORKER, S_WORKER, CT_STR_THREAD, "worker");
    thread_name(WORKER, S_WORKER);
    alloc(WORKER, A_ALLOCHOST, 0, 17000, 200, 1 << 20, 0x200000000, CT_MEM_PINNED);
    alloc(WORKER, A_ALLOC, 0, 20000, 150, 16384, 0x7000100000, CT_MEM_DEVICE);
    copy(WORKER, A_DTOD, 21000, 500, 16384, CT_MEM_DEVICE, CT_MEM_DEVICE, 0);
    launch(WORKER, A_LAUNCH, 22000, 35, S_VECADD, 4, 256, 1);
    copy(WORKER, A_HTOD, 23000, 800, 2048, CT_MEM_PINNED, CT_MEM_DEVICE, CT_COPY_ASYNC);
    api(A_DTOD, "cuMemcpyDtoD", "cuMemcpyDtoD_v2", 0, CT_FAM_COPY); /* defined after its use too */

    struct ct_rec_lost lost = {.count = 7, .t_first_ns = START_MONO + 24000, .t_last_ns = START_MONO + 25000,
                               .reason = CT_LOST_BUFFER_FULL};
    ct_put_hdr(&lost.h, CT_REC_LOST, sizeof lost, WORKER);
    put(&lost, sizeof lost);
    string(0, S_UNTRACED, CT_STR_OTHER, "cuFooBar");
    struct ct_rec_untraced u = {.name_id = S_UNTRACED, .count = 2};
    ct_put_hdr(&u.h, CT_REC_UNTRACED, sizeof u, 0);
    put(&u, sizeof u);
    struct ct_rec_end end = {.calls = 20, .lost = 7, .untraced = 2, .end_mono_ns = START_MONO + 40000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* A child of the parent on the same host: its own API ids and string ids. */
static void child(void)
{
    static const char cmd[] = "./vecadd\0child";
    header(2000, 1000, START_MONO + 50000);
    process("testhost", cmd, sizeof cmd);
    api(0, "cuMemAlloc", "cuMemAlloc_v2", 0, CT_FAM_ALLOC);
    api(1, "cuMemFree", "cuMemFree_v2", 0, CT_FAM_FREE);
    api(2, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    string(2000, 9, CT_STR_KERNEL, "vecAdd");
    seq = 0;
    alloc(2000, 0, 0, 60000, 100, 1024, 0x7000000000, CT_MEM_DEVICE); /* same address, other process */
    launch(2000, 2, 61000, 45, 9, 4, 256, 0);
    mfree(2000, 1, 62000, 80, 0x7000000000, CT_MEM_DEVICE);
    struct ct_rec_end end = {.calls = 3, .end_mono_ns = START_MONO + 70000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* n calls of 4 threads, written in blocks of 4096 records per thread as the recorder drains them. */
static int open_out(const char *path);
static int close_out(const char *path);

/* `big`: as pid 3000 without a rank (rank < 0), else as its own process and rank. */
static void big_rank(unsigned long long n, int rank)
{
    static const char cmd[] = "./bench";
    const uint32_t pid = 3000 + (rank < 0 ? 0 : 16 * (uint32_t)rank);
    header(pid, 1, START_MONO + (rank < 0 ? 0 : 7 * rank));
    process(rank < 0 ? "benchhost" : rank % 2 ? "node1" : "node0", cmd, sizeof cmd);
    if (rank >= 0) {
        struct ct_rec_rank r = {.rank = rank, .local_rank = rank / 2, .world_size = -1, .source = CT_RANK_RANK};
        ct_put_hdr(&r.h, CT_REC_RANK, sizeof r, 0);
        put(&r, sizeof r);
    }
    api(0, "cuMemAlloc", "cuMemAlloc_v2", 0, CT_FAM_ALLOC);
    api(1, "cuMemFree", "cuMemFree_v2", 0, CT_FAM_FREE);
    api(2, "cuMemcpyHtoD", "cuMemcpyHtoD_v2", 0, CT_FAM_COPY);
    api(3, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    api(4, "cuStreamSynchronize", "cuStreamSynchronize", 0, CT_FAM_NONE);
    for (uint32_t k = 1; k <= 16; k++) {
        char name[64];
        snprintf(name, sizeof name, "_Z7kernel%uPfi", k % 10);
        string(0, k, CT_STR_KERNEL, name);
    }
    enum { THREADS = 4, BLOCK = 4096 };
    unsigned long long done = 0, count[THREADS] = {0};
    uint64_t state = 88172645463325252ull;
    while (done < n) {
        for (uint32_t t = 0; t < THREADS && done < n; t++)
            for (unsigned i = 0; i < BLOCK && done < n; i++, done++) {
                uint32_t tid = pid + t;
                /* the threads run side by side: their blocks overlap in time, so the report must merge */
                int64_t t0 = (int64_t)(count[t]++ * 1000 + t * 250);
                state ^= state << 13, state ^= state >> 7, state ^= state << 17;
                int64_t dur = (int64_t)(100 + state % 900);
                uint64_t addr = 0x700000000000ull + ((uint64_t)tid << 32) + (i / 2) * 4096;
                switch (i % 8) {
                case 0: alloc(tid, 0, 0, t0, dur, 4096, addr, CT_MEM_DEVICE); break;
                case 1: mfree(tid, 1, t0, dur, addr, CT_MEM_DEVICE); break;
                case 2:
                case 3: copy(tid, 2, t0, dur, 1 << (i % 20), CT_MEM_HOST, CT_MEM_DEVICE, 0); break;
                case 4:
                case 5:
                case 6: launch(tid, 3, t0, dur, 1 + (uint32_t)(state % 16), 1 + (uint32_t)(state % 64), 256, 0); break;
                default: call(tid, 4, 0, t0, dur, CT_FAM_NONE, NULL, 0);
                }
            }
    }
    /* Ended as a process that exited: the report reads it as complete. */
    struct ct_rec_end end = {.calls = n,
                             .end_mono_ns = START_MONO + 1000 * (int64_t)(n / 4 + 1) + 7 * (rank > 0 ? rank : 0)};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

static void big(unsigned long long n) { big_rank(n, -1); }

static int bigranks(unsigned long n, unsigned long long calls, const char *dir)
{
    for (unsigned long r = 0; r < n; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank-%05lu.ctrace", dir, r);
        if (open_out(path) < 0)
            return 1;
        big_rank(calls, (int)r);
        if (close_out(path) < 0)
            return 1;
    }
    return 0;
}

/* n thread ids (as a program that starts a thread per work item makes), one call each; thread i's call
 * lies at a scrambled time so that the merge interleaves them all. */
static void threads(unsigned long n)
{
    static const char cmd[] = "./spawner";
    header(4000, 1, START_MONO);
    process("benchhost", cmd, sizeof cmd);
    api(0, "cuCtxSynchronize", "cuCtxSynchronize", 0, CT_FAM_NONE);
    api(1, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    string(0, 1, CT_STR_KERNEL, "work");
    for (unsigned long i = 0; i < n; i++) {
        uint32_t tid = 100000 + (uint32_t)i;
        int64_t t0 = (int64_t)((i * 7919) % n) * 100;
        if (i % 16 == 0)
            launch(tid, 1, t0, 50, 1, 1 + (uint32_t)(i % 64), 128, 1);
        else
            call(tid, 0, 0, t0, 50, CT_FAM_NONE, NULL, 0);
    }
}

/* m modules of 1 MiB each (paths that do not exist: nothing to symbolize, only to look up), s stacks of f
 * frames whose addresses fall in modules spread over the whole list, and one allocation per stack. */
static void stacks(unsigned long m, unsigned long s, unsigned f)
{
    static const char cmd[] = "./deep";
    enum { MOD_SIZE = 1 << 20 };
    const uint64_t base = 0x7f0000000000ull;
    header_with(5000, 1, START_MONO, CT_FEAT_STACKS);
    process("benchhost", cmd, sizeof cmd);
    api(0, "cuMemAlloc", "cuMemAlloc_v2", 0, CT_FAM_ALLOC);
    for (unsigned long i = 0; i < m; i++) {
        unsigned char rec[256];
        char path[64];
        uint8_t build_id[20] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16)};
        int len = snprintf(path, sizeof path, "/nonexistent/lib/libmod%lu.so", i);
        uint64_t lo = base + i * MOD_SIZE;
        ct_put_module(rec, lo, lo, lo + MOD_SIZE, path, (size_t)len, build_id, sizeof build_id, 0);
        put(rec, ct_size_module((size_t)len));
    }
    uint64_t *frames = calloc(f ? f : 1, sizeof *frames);
    unsigned char *rec = malloc(ct_size_stack(f));
    if (!frames || !rec) {
        fprintf(stderr, "report-gen: out of memory\n");
        exit(1);
    }
    for (unsigned long i = 0; i < s; i++) {
        for (unsigned j = 0; j < f; j++) {
            unsigned long mod = m ? (i * 131 + j * 7919) % m : 0;
            frames[j] = base + mod * MOD_SIZE + 0x1000 + 16 * ((i + j) % 4096);
        }
        ct_put_stack(rec, 5000, (uint32_t)i + 1, frames, f, 0);
        put(rec, ct_size_stack(f));
        struct ct_pl_alloc a = {.bytes = 4096, .address = 0x7000000000ull + i * 4096, .kind = CT_MEM_DEVICE};
        struct ct_rec_call c = {.api_id = 0, .payload = CT_FAM_ALLOC, .seq = ++seq,
                                .t0_ns = (uint64_t)START_MONO + i * 1000, .t1_ns = (uint64_t)START_MONO + i * 1000 + 500,
                                .stack_id = (uint32_t)i + 1};
        unsigned char crec[sizeof c + sizeof a];
        ct_put_hdr(&c.h, CT_REC_CALL, sizeof crec, 5000);
        memcpy(crec, &c, sizeof c);
        memcpy(crec + sizeof c, &a, sizeof a);
        put(crec, sizeof crec);
    }
    free(frames);
    free(rec);
}

/* One rank of a job: two threads of 64 calls each (allocations, copies, launches, frees). */
static void rank(unsigned r)
{
    static const char cmd[] = "./rank";
    header(10000 + r, 1, START_MONO + r);
    process("clusterhost", cmd, sizeof cmd);
    api(0, "cuMemAlloc", "cuMemAlloc_v2", 0, CT_FAM_ALLOC);
    api(1, "cuMemFree", "cuMemFree_v2", 0, CT_FAM_FREE);
    api(2, "cuMemcpyHtoD", "cuMemcpyHtoD_v2", 0, CT_FAM_COPY);
    api(3, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    string(0, 1, CT_STR_KERNEL, "_Z4stepPfi");
    seq = 0;
    for (uint32_t t = 0; t < 2; t++)
        for (unsigned i = 0; i < 64; i++) {
            uint32_t tid = 10000 + r + t * 1000000;
            int64_t t0 = (int64_t)(i * 1000 + t * 300 + r);
            uint64_t addr = 0x7000000000ull + ((uint64_t)t << 32) + (i / 4) * 4096;
            switch (i % 4) {
            case 0: alloc(tid, 0, 0, t0, 100, 4096, addr, CT_MEM_DEVICE); break;
            case 1: copy(tid, 2, t0, 200, 4096, CT_MEM_HOST, CT_MEM_DEVICE, 0); break;
            case 2: launch(tid, 3, t0, 30, 1, 8, 256, 0); break;
            default: mfree(tid, 1, t0, 60, addr, CT_MEM_DEVICE);
            }
        }
    struct ct_rec_end end = {.calls = 128, .end_mono_ns = START_MONO + 70000 + r};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* ---- GPU time (format 5; its source, format 8) ---- */

/* A gpu-info record of timing events (or none, mode off) as the request asked for them. */
static void gpu_info(uint32_t mode, uint32_t n, uint32_t k, uint32_t final, uint64_t timed, uint64_t not_completed,
                     uint64_t pool, uint64_t refused, uint64_t capture)
{
    struct ct_rec_gpu_info r = {.mode = mode, .sample_n = n, .sample_k = k, .final = final, .timed = timed,
                                .not_completed = not_completed, .untimed_pool = pool, .untimed_refused = refused,
                                .untimed_capture = capture,
                                .source = mode == CT_GPU_OFF ? CT_GPU_SRC_NONE : CT_GPU_SRC_EVENTS,
                                .request = mode == CT_GPU_SAMPLE ? CT_GPU_REQ_SAMPLE
                                           : mode == CT_GPU_ALL  ? CT_GPU_REQ_EVENTS
                                                                 : CT_GPU_REQ_OFF};
    ct_put_hdr(&r.h, CT_REC_GPU_INFO, sizeof r, 0);
    put(&r, sizeof r);
}

/* The span of call `s` (of thread tid, api api_id): `start` ns after START_MONO, never ticks. */
static struct ct_rec_gpu gpu_span(uint32_t tid, uint64_t s, uint16_t api_id, int64_t start, int64_t dur,
                                  uint64_t stream, int32_t device)
{
    struct ct_rec_gpu r = {.seq = s, .start_ns = (uint64_t)(START_MONO + start),
                           .end_ns = (uint64_t)(START_MONO + start + dur), .stream = stream, .api_id = api_id,
                           .device = device};
    ct_put_hdr(&r.h, CT_REC_GPU, sizeof r, tid);
    return r;
}

static void gpu_launch_flags(uint32_t tid, uint64_t s, uint16_t api_id, int64_t start, int64_t dur, uint64_t stream,
                             uint32_t name_id, unsigned kind, uint32_t gx, uint32_t bx, uint8_t flags)
{
    struct ct_rec_gpu r = gpu_span(tid, s, api_id, start, dur, stream, 0);
    r.flags = flags;
    r.family = CT_FAM_LAUNCH;
    r.name_id = name_id;
    r.launch_kind = kind;
    r.grid[0] = gx, r.grid[1] = r.grid[2] = 1;
    r.block[0] = bx, r.block[1] = r.block[2] = 1;
    put(&r, sizeof r);
}

static void gpu_launch(uint32_t tid, uint64_t s, uint16_t api_id, int64_t start, int64_t dur, uint64_t stream,
                       uint32_t name_id, unsigned kind, uint32_t gx, uint32_t bx)
{
    gpu_launch_flags(tid, s, api_id, start, dur, stream, name_id, kind, gx, bx, 0);
}

static void gpu_copy(uint32_t tid, uint64_t s, uint16_t api_id, int64_t start, int64_t dur, int32_t device,
                     uint64_t bytes, unsigned sk, unsigned dk, uint32_t flags)
{
    struct ct_rec_gpu r = gpu_span(tid, s, api_id, start, dur, 0x20 * (uint64_t)device, device);
    r.family = CT_FAM_COPY;
    r.bytes = bytes;
    r.copy_flags = flags;
    r.src_kind = (uint16_t)sk;
    r.dst_kind = (uint16_t)dk;
    put(&r, sizeof r);
}

enum { GS_A = 1, GS_B, GS_C };
#define GRAPH_EXEC 0xabc

/* Sequence numbers are those of the calls in the order written: main's 1 to 21, the worker's 22 to 24. */
static void gpu(void)
{
    static const char cmd[] = "./gpuapp";
    header(6000, 1, START_MONO);
    process("gpuhost", cmd, sizeof cmd);
    copy_launch_apis();
    api(A_GRAPH, "cuGraphLaunch", "cuGraphLaunch", 0, CT_FAM_LAUNCH);
    api(A_HOSTFN, "cuLaunchHostFunc", "cuLaunchHostFunc", 0, CT_FAM_LAUNCH);
    string(0, GS_A, CT_STR_KERNEL, "_Z7kernelAPf");
    string(0, GS_B, CT_STR_KERNEL, "kernelB");
    string(0, GS_C, CT_STR_KERNEL, "kernelC");
    gpu_info(CT_GPU_SAMPLE, 4, 2, 0, 0, 0, 0, 0, 0);
    clock_in_ticks(); /* call times in ticks; span times stay ns */
    seq = 0;
    const uint32_t M = 6000, W = 6001;
    copy(M, A_HTOD, 1000, 100, 1000000, CT_MEM_HOST, CT_MEM_DEVICE, 0);   /* 1: 500 on the GPU */
    copy(M, A_HTOD, 2000, 100, 1000000, CT_MEM_HOST, CT_MEM_DEVICE, 0);   /* 2: untimed */
    copy(M, A_HTOD, 3000, 100, 4096, CT_MEM_HOST, CT_MEM_DEVICE, 0);      /* 3: 50 */
    launch(M, A_LAUNCH, 4000, 100, GS_A, 8, 256, 1);                      /* 4: 1000 */
    launch_again(M, 6000, 100, 4000);                                     /* 5: 1200 */
    launch_again(M, 8000, 100, 6000);                                     /* 6-8: untimed */
    launch_again(M, 9000, 100, 8000);
    launch_again(M, 10000, 100, 9000);
    launch_again(M, 11000, 100, 10000);                                   /* 9: 1400 */
    launch(M, A_LAUNCH, 13000, 100, GS_A, 16, 128, 0);                    /* 10: 3000 */
    launch(M, A_LAUNCH, 17000, 100, GS_A, 16, 128, 0);                    /* 11: 5000 */
    launch(M, A_LAUNCH, 23000, 100, GS_A, 32, 64, 0);                     /* 12: its shape never timed */
    launch(M, A_LAUNCH_PTSZ, 24000, 50, GS_B, 4, 32, 0);                  /* 13-15: 100, 200, 300 */
    launch(M, A_LAUNCH_PTSZ, 25000, 50, GS_B, 4, 32, 0);
    launch(M, A_LAUNCH_PTSZ, 26000, 50, GS_B, 4, 32, 0);
    launch(M, A_LAUNCH, 27000, 50, GS_C, 1, 1, 0);                        /* 16-17: never timed */
    launch(M, A_LAUNCH, 28000, 50, GS_C, 1, 1, 0);
    launch_of(M, A_LAUNCH, 1 /* CUDA_ERROR_INVALID_VALUE */, 29000, 50, GS_A, CT_LAUNCH_KERNEL, 0xf00d, 8, 256, 0);
    launch_of(M, A_HOSTFN, 0, 30000, 50, 0, CT_LAUNCH_HOST_FUNC, 0x4000, 0, 0, 0); /* 19: runs on the host */
    copy(M, A_MEMSET, 31000, 40, 8192, CT_MEM_UNKNOWN, CT_MEM_DEVICE, CT_COPY_SET); /* 20: 20 */
    copy(M, A_MEMSET, 32000, 40, 8192, CT_MEM_UNKNOWN, CT_MEM_DEVICE, CT_COPY_SET); /* 21: untimed */
    /* The main thread's spans, in the order their events completed, not by sequence number. */
    gpu_copy(M, 3, A_HTOD, 3150, 50, 0, 4096, CT_MEM_HOST, CT_MEM_DEVICE, 0);
    gpu_copy(M, 1, A_HTOD, 1200, 500, 0, 1000000, CT_MEM_HOST, CT_MEM_DEVICE, 0);
    gpu_launch(M, 5, A_LAUNCH, 6100, 1200, 0x10, GS_A, CT_LAUNCH_KERNEL, 8, 256);
    gpu_launch(M, 4, A_LAUNCH, 4100, 1000, 0x10, GS_A, CT_LAUNCH_KERNEL, 8, 256);
    /* Timed as the sample of 4 calls (its kind's first 2 were timed for themselves): weighs 4. */
    gpu_launch_flags(M, 9, A_LAUNCH, 11100, 1400, 0x10, GS_A, CT_LAUNCH_KERNEL, 8, 256, CT_GPU_SPAN_SAMPLED);
    gpu_launch(M, 10, A_LAUNCH, 13100, 3000, 0x10, GS_A, CT_LAUNCH_KERNEL, 16, 128);
    gpu_launch(M, 11, A_LAUNCH, 17100, 5000, 0x10, GS_A, CT_LAUNCH_KERNEL, 16, 128);
    gpu_launch(M, 13, A_LAUNCH_PTSZ, 24100, 100, 0x2, GS_B, CT_LAUNCH_KERNEL, 4, 32);
    gpu_launch_flags(M, 15, A_LAUNCH_PTSZ, 26100, 300, 0x2, GS_B, CT_LAUNCH_KERNEL, 4, 32, CT_GPU_SPAN_SAMPLED);
    gpu_launch(M, 14, A_LAUNCH_PTSZ, 25100, 200, 0x2, GS_B, CT_LAUNCH_KERNEL, 4, 32);
    gpu_copy(M, 20, A_MEMSET, 31100, 20, 0, 8192, CT_MEM_UNKNOWN, CT_MEM_DEVICE, CT_COPY_SET);

    launch_of(W, A_GRAPH, 0, 5000, 200, 0, CT_LAUNCH_GRAPH, GRAPH_EXEC, 0, 0, 0);  /* 22: 4000 */
    launch_of(W, A_GRAPH, 0, 20000, 200, 0, CT_LAUNCH_GRAPH, GRAPH_EXEC, 0, 0, 0); /* 23: untimed */
    copy(W, A_DTOH, 33000, 900, 2000000, CT_MEM_DEVICE, CT_MEM_HOST, 0);          /* 24: 800, device 1 */
    gpu_copy(W, 24, A_DTOH, 33050, 800, 1, 2000000, CT_MEM_DEVICE, CT_MEM_HOST, 0);
    gpu_launch(W, 22, A_GRAPH, 5300, 4000, 0x20, 0, CT_LAUNCH_GRAPH, 0, 0);
    gpu_info(CT_GPU_SAMPLE, 4, 2, 1, 13, 1, 2, 3, 4);
    struct ct_rec_end end = {.calls = 24, .end_mono_ns = START_MONO + 40000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

static void gpuoff(void)
{
    static const char cmd[] = "./gpuapp";
    header(6100, 1, START_MONO);
    process("gpuhost", cmd, sizeof cmd);
    api(0, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    string(0, 1, CT_STR_KERNEL, "kernelA");
    /* As format 5 to 7 wrote them: the record ends after untimed_capture. */
    struct ct_rec_gpu_info r = {.mode = CT_GPU_OFF};
    ct_put_hdr(&r.h, CT_REC_GPU_INFO, CT_REC_GPU_INFO_V5_SIZE, 0);
    put(&r, CT_REC_GPU_INFO_V5_SIZE);
    seq = 0;
    launch(6100, 0, 1000, 100, 1, 8, 256, 0);
    r.final = 1;
    put(&r, CT_REC_GPU_INFO_V5_SIZE);
}

/* Two launches, the second 2^60 ns (36 years) after the first: a time a partial cannot hold
 * (analyze-partial.sh); not whole, the same process with only the first; with end_late, only the first and
 * an END that late. */
static void late(int whole, int end_late)
{
    static const char cmd[] = "./lateapp";
    header(6300, 1, START_MONO);
    process("latehost", cmd, sizeof cmd);
    api(0, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    string(0, 1, CT_STR_KERNEL, "kernelA");
    seq = 0;
    launch(6300, 0, 1000, 100, 1, 8, 256, 0);
    if (whole)
        launch(6300, 0, (int64_t)1 << 60, 100, 1, 8, 256, 0);
    if (end_late) {
        struct ct_rec_end end = {.calls = 1, .end_mono_ns = ((uint64_t)1 << 60) + 5};
        ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
        put(&end, sizeof end);
    }
}

/* A gpu-info record of CUPTI's activity (format 8), and one of events after the program took CUPTI. */
static void gpu_info_source(uint32_t source, uint32_t why, uint32_t mode, uint64_t source_ns, uint32_t final,
                            uint64_t timed, uint64_t no_call, uint64_t dropped)
{
    struct ct_rec_gpu_info r = {.mode = mode, .sample_n = 4, .sample_k = 2, .final = final, .timed = timed,
                                .source = source, .why = why, .request = CT_GPU_REQ_AUTO,
                                .source_ns = source_ns ? (uint64_t)(START_MONO + (int64_t)source_ns) : 0,
                                .no_call = no_call, .dropped = dropped};
    ct_put_hdr(&r.h, CT_REC_GPU_INFO, sizeof r, 0);
    put(&r, sizeof r);
}

/* An activity span (CUPTI's record): of call s, or of no call (s 0); a graph's kernel says what it ran. */
static void act_launch(uint64_t s, int64_t start, int64_t dur, uint32_t name_id, uint32_t gx, uint32_t bx,
                       uint8_t flags)
{
    gpu_launch_flags(s ? 6200 : 0, s, s ? A_LAUNCH : 0, start, dur, s ? 0x10 : 7, name_id, CT_LAUNCH_KERNEL, gx, bx,
                     (uint8_t)(CT_GPU_SPAN_ACTIVITY | flags));
}

/* CUPTI's activity records (every call timed) with a kernel of no call in a long idle stretch: launches at
 * 1 us, 10 ms and 20 ms (their kernels 1 us each, 100 ns after the call), the kernel of no call from 13 to
 * 14 ms, the end at 30 ms (analyze-rules.sh). */
static void nocall(void)
{
    static const char cmd[] = "./nocall";
    header(6400, 1, START_MONO);
    process("gpuhost", cmd, sizeof cmd);
    copy_launch_apis();
    string(0, GS_A, CT_STR_KERNEL, "kernelA");
    string(0, GS_B, CT_STR_KERNEL, "kernelB");
    gpu_info_source(CT_GPU_SRC_ACTIVITY, CT_GPU_WHY_CHOSEN, CT_GPU_ALL, 0, 0, 0, 0, 0);
    seq = 0;
    const uint32_t M = 6400;
    const int64_t at[] = {1000, 10000000, 20000000};
    for (unsigned i = 0; i < 3; i++)
        launch(M, A_LAUNCH, at[i], 100, GS_A, 8, 256, 0);
    for (unsigned i = 0; i < 3; i++)
        gpu_launch_flags(M, i + 1, A_LAUNCH, at[i] + 100, 1000, 0x10, GS_A, CT_LAUNCH_KERNEL, 8, 256,
                         CT_GPU_SPAN_ACTIVITY);
    act_launch(0, 13000000, 1000000, GS_B, 4, 32, CT_GPU_SPAN_NO_CALL);
    gpu_info_source(CT_GPU_SRC_ACTIVITY, CT_GPU_WHY_CHOSEN, CT_GPU_ALL, 0, 1, 3, 1, 0);
    struct ct_rec_end end = {.calls = 3, .end_mono_ns = START_MONO + 30000000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* GPU time from CUPTI's activity records until the program took CUPTI at 20 us, then from timing events
 * (sampled).  Calls: 1, 2 kernelA timed (1000, 1100); 3 a graph launch that ran kernelB (300) and kernelC
 * (200); 4 kernelA with no record (lost: not counted, as CUPTI times every call); 5 a copy (50); then 6
 * kernelA timed by events (900), 7 not timed (counted).  One span of kernelB (400) has no call. */
static void gpuact(void)
{
    static const char cmd[] = "./gpuact";
    header(6200, 1, START_MONO);
    process("gpuhost", cmd, sizeof cmd);
    copy_launch_apis();
    api(A_GRAPH, "cuGraphLaunch", "cuGraphLaunch", 0, CT_FAM_LAUNCH);
    string(0, GS_A, CT_STR_KERNEL, "kernelA");
    string(0, GS_B, CT_STR_KERNEL, "kernelB");
    string(0, GS_C, CT_STR_KERNEL, "kernelC");
    gpu_info_source(CT_GPU_SRC_ACTIVITY, CT_GPU_WHY_CHOSEN, CT_GPU_ALL, 0, 0, 0, 0, 0);
    seq = 0;
    const uint32_t M = 6200;
    launch(M, A_LAUNCH, 1000, 100, GS_A, 8, 256, 0);
    launch(M, A_LAUNCH, 2000, 100, GS_A, 8, 256, 0);
    launch_of(M, A_GRAPH, 0, 3000, 100, 0, CT_LAUNCH_GRAPH, GRAPH_EXEC, 0, 0, 0);
    launch(M, A_LAUNCH, 4000, 100, GS_A, 8, 256, 0);
    copy(M, A_HTOD, 5000, 100, 4096, CT_MEM_HOST, CT_MEM_DEVICE, 0);
    launch(M, A_LAUNCH, 21000, 100, GS_A, 8, 256, 0);
    launch(M, A_LAUNCH, 22000, 100, GS_A, 8, 256, 0);
    act_launch(1, 1100, 1000, GS_A, 8, 256, 0);
    act_launch(2, 2100, 1100, GS_A, 8, 256, 0);
    struct ct_rec_gpu g = gpu_span(M, 3, A_GRAPH, 3100, 300, 0x10, 0); /* the graph's two kernels */
    g.family = CT_FAM_LAUNCH, g.name_id = GS_B, g.launch_kind = CT_LAUNCH_KERNEL;
    g.grid[0] = 4, g.grid[1] = g.grid[2] = 1, g.block[0] = 32, g.block[1] = g.block[2] = 1;
    g.flags = CT_GPU_SPAN_ACTIVITY | CT_GPU_SPAN_GRAPH;
    put(&g, sizeof g);
    g.start_ns += 300, g.end_ns += 200, g.name_id = GS_C, g.grid[0] = 1, g.block[0] = 1;
    put(&g, sizeof g);
    struct ct_rec_gpu c = gpu_span(M, 5, A_HTOD, 5100, 50, 0x10, 0);
    c.family = CT_FAM_COPY, c.bytes = 4096, c.src_kind = CT_MEM_HOST, c.dst_kind = CT_MEM_DEVICE;
    c.flags = CT_GPU_SPAN_ACTIVITY;
    put(&c, sizeof c);
    act_launch(0, 9000, 400, GS_B, 4, 32, CT_GPU_SPAN_NO_CALL);
    gpu_info_source(CT_GPU_SRC_EVENTS, CT_GPU_WHY_PROGRAM, CT_GPU_SAMPLE, 20000, 0, 5, 1, 0);
    gpu_launch(M, 6, A_LAUNCH, 21100, 900, 0x10, GS_A, CT_LAUNCH_KERNEL, 8, 256);
    gpu_info_source(CT_GPU_SRC_EVENTS, CT_GPU_WHY_PROGRAM, CT_GPU_SAMPLE, 20000, 1, 7, 1, 3);
    struct ct_rec_end end = {.calls = 7, .end_mono_ns = START_MONO + 30000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* n launches of one thread, each with its span (GPU time all): what joining spans to calls costs. */
static void gpubig(unsigned long long n)
{
    static const char cmd[] = "./gpubench";
    header(7000, 1, START_MONO);
    process("benchhost", cmd, sizeof cmd);
    api(0, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    for (uint32_t k = 1; k <= 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "kernel%u", k);
        string(0, k, CT_STR_KERNEL, name);
    }
    gpu_info(CT_GPU_ALL, 0, 0, 0, 0, 0, 0, 0, 0);
    enum { BLOCK = 4096 }; /* calls, then their spans, as the recorder drains them */
    for (unsigned long long i = 0; i < n; i += BLOCK) {
        unsigned long long end = i + BLOCK < n ? i + BLOCK : n;
        uint64_t first = seq + 1;
        for (unsigned long long j = i; j < end; j++)
            launch(7000, 0, (int64_t)j * 1000, 100, 1 + (uint32_t)(j % 4), 1 + (uint32_t)(j % 7), 256, 0);
        for (unsigned long long j = i; j < end; j++)
            gpu_launch(7000, first + (j - i), 0, (int64_t)j * 1000 + 200, 500 + (int64_t)(j % 100), 0x10,
                       1 + (uint32_t)(j % 4), CT_LAUNCH_KERNEL, 1 + (uint32_t)(j % 7), 256);
    }
    gpu_info(CT_GPU_ALL, 0, 0, 1, n, 0, 0, 0, 0);
}

/* n streams of device 0, three timed launches on each, one after the other: more streams than the HTML
 * report's timeline has rows for (report-html.sh). */
static void streams(unsigned long n)
{
    static const char cmd[] = "./manystreams";
    header(7200, 1, START_MONO);
    process("benchhost", cmd, sizeof cmd);
    api(0, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    string(7200, 1, CT_STR_KERNEL, "kernelS");
    gpu_info(CT_GPU_ALL, 0, 0, 0, 0, 0, 0, 0, 0);
    for (unsigned long i = 0; i < 3 * n; i++) {
        launch(7200, 0, (int64_t)i * 1000, 100, 1, 1, 128, 0);
        gpu_launch(7200, seq, 0, (int64_t)i * 1000 + 200, 500, 0x100 + (i / 3) * 0x10, 1, CT_LAUNCH_KERNEL, 1, 128);
    }
    gpu_info(CT_GPU_ALL, 0, 0, 1, 3 * n, 0, 0, 0, 0);
    struct ct_rec_end end = {.calls = 3 * n, .end_mono_ns = START_MONO + (int64_t)(3 * n) * 1000 + 1000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* n kernels named apart, one launch and its span each, in blocks as the recorder drains them. */
static void kernels(unsigned long n)
{
    static const char cmd[] = "./manykernels";
    header(7100, 1, START_MONO);
    process("benchhost", cmd, sizeof cmd);
    api(0, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    gpu_info(CT_GPU_ALL, 0, 0, 0, 0, 0, 0, 0, 0);
    enum { BLOCK = 4096 };
    for (unsigned long i = 0; i < n; i += BLOCK) {
        unsigned long end = i + BLOCK < n ? i + BLOCK : n;
        uint64_t first = seq + 1;
        for (unsigned long k = i; k < end; k++) {
            char name[96];
            snprintf(name, sizeof name, "_Z15kernel_%08luILi128ELi4EEvPKfPfi", k);
            string(7100, (uint32_t)k + 1, CT_STR_KERNEL, name);
            launch(7100, 0, (int64_t)k * 1000, 100 + (int64_t)(k % 50), (uint32_t)k + 1, 1 + (uint32_t)(k % 7), 128, 0);
        }
        for (unsigned long k = i; k < end; k++)
            gpu_launch(7100, first + (k - i), 0, (int64_t)k * 1000 + 200, 500 + (int64_t)(k % 100), 0x10,
                       (uint32_t)k + 1, CT_LAUNCH_KERNEL, 1 + (uint32_t)(k % 7), 128);
    }
    gpu_info(CT_GPU_ALL, 0, 0, 1, n, 0, 0, 0, 0);
    struct ct_rec_end end = {.calls = n, .end_mono_ns = START_MONO + (int64_t)n * 1000 + 1000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

/* ESC sequences that would clear the screen, set the window title, ...; a C1 CSI (U+009B) in UTF-8. */
/* The names of a hostile trace: with terminal controls (escapes) or with markup and script (markup). */
struct hostile {
    const char *cmd;
    size_t cmd_size;
    const char *module, *host, *api, *thread, *kernel, *nvtx;
};

static const char esc_cmd[] = "./evil\033[2J\0arg";
static const struct hostile esc_names = {esc_cmd, sizeof esc_cmd, "/nonexistent/\033[2Jlibevil.so", "host\033[31m",
                                         "cuMemAlloc\033[5m", "\033[2J\033[31mPWN\r",
                                         "k\033]0;title\007\xc2\x9b" "2J", "step\033[31m"};
/* Each would run script in a page that did not escape it: it sets data-pwned on the body. */
static const char markup_cmd[] = "./evil<script>document.body.dataset.pwned=1</script>\0arg";
static const struct hostile markup_names = {
    markup_cmd, sizeof markup_cmd, "/nonexistent/<b>lib&amp;evil.so", "host'\"><img src=x onerror=\"document.body.dataset.pwned=1\">",
    "cuMemAlloc<script>document.body.dataset.pwned=1</script>", "</title></text><script>document.body.dataset.pwned=1</script>",
    "k<svg onload=\"document.body.dataset.pwned=1\">;x\n", "step\"><script>document.body.dataset.pwned=1</script>&lt;"};

static void escapes(const struct hostile *h)
{
    const size_t module_len = strlen(h->module);
    enum { T = 8000 };
    const uint64_t base = 0x7f0000000000ull, frame = base + 0x1234;
    unsigned char rec[256];
    header_with(8000, 1, START_MONO, CT_FEAT_STACKS);
    process(h->host, h->cmd, h->cmd_size);
    api(0, "cuLaunchKernel", "cuLaunchKernel", 0, CT_FAM_LAUNCH);
    api(1, h->api, "cuMemAlloc_v2", 0, CT_FAM_ALLOC);
    string(T, 1, CT_STR_THREAD, h->thread);
    thread_name(T, 1);
    string(T, 2, CT_STR_KERNEL, h->kernel);
    string(T, 3, CT_STR_NVTX, h->nvtx);
    ct_put_module(rec, base, base, base + 0x10000, h->module, module_len, NULL, 0, 0);
    put(rec, ct_size_module(module_len));
    ct_put_stack(rec, T, 1, &frame, 1, 0);
    put(rec, ct_size_stack(1));
    struct ct_rec_nvtx n = {.kind = CT_NVTX_PUSH, .name_id = 3, .t_ns = START_MONO + 500};
    ct_put_hdr(&n.h, CT_REC_NVTX, sizeof n, T);
    put(&n, sizeof n);
    seq = 0;
    call_stack = 1;
    launch(T, 0, 1000, 100, 2, 1, 32, 0);
    alloc(T, 1, 0, 2000, 100, 4096, 0x7000000000, CT_MEM_DEVICE); /* never freed: the memory report's leak */
    call_stack = 0;
    n = (struct ct_rec_nvtx){.kind = CT_NVTX_POP, .t_ns = START_MONO + 5000};
    ct_put_hdr(&n.h, CT_REC_NVTX, sizeof n, T);
    put(&n, sizeof n);
    struct ct_rec_end end = {.calls = 2, .end_mono_ns = START_MONO + 6000};
    ct_put_hdr(&end.h, CT_REC_END, sizeof end, 0);
    put(&end, sizeof end);
}

static int open_out(const char *path)
{
    if (!(out = fopen(path, "wb"))) {
        perror(path);
        return -1;
    }
    return 0;
}

static int close_out(const char *path)
{
    if (fclose(out) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

static int files(unsigned long n, const char *dir)
{
    for (unsigned long r = 0; r < n; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank-%05lu.ctrace", dir, r);
        if (open_out(path) < 0)
            return 1;
        rank((unsigned)r);
        if (close_out(path) < 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    int want = !strcmp(what, "stacks")                                                   ? 6
               : !strcmp(what, "bigranks")                                               ? 5
               : !strcmp(what, "parent") || !strcmp(what, "child") || !strcmp(what, "gpu") ||
                       !strcmp(what, "gpuoff") || !strcmp(what, "gpuact") || !strcmp(what, "escapes") ||
                       !strcmp(what, "markup") || !strcmp(what, "late") || !strcmp(what, "early") ||
                       !strcmp(what, "lateend") || !strcmp(what, "nocall")
                   ? 3
                   : 4;
    if (argc != want) {
        fprintf(stderr, "usage: report-gen parent|child|gpu|gpuoff|gpuact|escapes|markup|late|early|lateend|nocall FILE | "
                        "report-gen big|threads|gpubig|kernels|streams N FILE | "
                        "report-gen stacks MODULES STACKS FRAMES FILE | report-gen files N DIR | "
                        "report-gen bigranks N CALLS DIR\n");
        return 1;
    }
    const char *path = argv[argc - 1];
    if (!strcmp(what, "files"))
        return files(strtoul(argv[2], NULL, 10), path);
    if (!strcmp(what, "bigranks"))
        return bigranks(strtoul(argv[2], NULL, 10), strtoull(argv[3], NULL, 10), path);
    if (open_out(path) < 0)
        return 1;
    if (!strcmp(what, "parent"))
        parent();
    else if (!strcmp(what, "child"))
        child();
    else if (!strcmp(what, "big"))
        big(strtoull(argv[2], NULL, 10));
    else if (!strcmp(what, "gpu"))
        gpu();
    else if (!strcmp(what, "gpuoff"))
        gpuoff();
    else if (!strcmp(what, "gpuact"))
        gpuact();
    else if (!strcmp(what, "late") || !strcmp(what, "early") || !strcmp(what, "lateend"))
        late(!strcmp(what, "late"), !strcmp(what, "lateend"));
    else if (!strcmp(what, "nocall"))
        nocall();
    else if (!strcmp(what, "escapes"))
        escapes(&esc_names);
    else if (!strcmp(what, "markup"))
        escapes(&markup_names);
    else if (!strcmp(what, "gpubig"))
        gpubig(strtoull(argv[2], NULL, 10));
    else if (!strcmp(what, "kernels"))
        kernels(strtoul(argv[2], NULL, 10));
    else if (!strcmp(what, "streams"))
        streams(strtoul(argv[2], NULL, 10));
    else if (!strcmp(what, "threads"))
        threads(strtoul(argv[2], NULL, 10));
    else if (!strcmp(what, "stacks"))
        stacks(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10), (unsigned)strtoul(argv[4], NULL, 10));
    else {
        fprintf(stderr, "report-gen: unknown scenario %s\n", what);
        return 1;
    }
    return close_out(path) < 0;
}
