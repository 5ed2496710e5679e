// Host cost per call of the three hot runtime paths, for comparing untraced and traced runs
// (bench/run-overhead alternates them).
// Usage: overhead [-c CPU] [-p PAIRS] [LAUNCHES [MALLOC_PAIRS [COPIES]]]
// -c CPU: after the warm-up, pin the calling thread (the one that launches) to CPU and leave the threads
// that start-up made (the driver's, the tracer's writer) where the scheduler puts them, as in a program
// that pins nothing; without it, pin the whole process from outside (taskset) to have them share one CPU.
// Prints `launch_us=`, `malloc_free_us=` and `memcpy_h2d_us=` lines (µs per call, per pair for malloc), and
// `launch_blockmed_us=`: the launches are timed in 50 blocks and this is the median block's µs per launch, a
// figure that a burst of host noise (another tenant, an interrupt storm) in a few blocks does not move.
//
// -p PAIRS: traced and untraced in this one process (run it under the tracer with CUDATRACE_CAPTURE=profiler):
// each phase's calls are split into PAIRS pairs of blocks, one block with tracing off (cudaProfilerStop) and
// one with it on (cudaProfilerStart), in the order off-on, on-off, off-on, ... so that a drift falls on both
// alike.  The machine's speed moves by ±10% from one second to the next (two back-to-back loops of one
// process read 4.27 and 5.81 µs per launch on the H100), so neighbouring blocks compare far better than
// processes do.
// An "off" block still passes through the tracer's trampolines (a flag test, no clock, no record).  The
// tracer's writer works for the "on" blocks whenever it wakes: its CPU time over the phase (and a settling
// pause after it, three default flush intervals) is added to the "on" blocks per call.  Prints per phase
// `<phase>_off_us=`, `<phase>_on_us=` (medians of the blocks' µs per call), `<phase>_writer_ns=` and
// `<phase>_ratio=` with `<phase>_ratio_q1=` / `_q3=`: the median and quartiles over the pairs of
// (on + writer) / off.  Use -c with it, so that the writer does not run inside the launching thread's time.
// With CUDATRACE_GPU_TIME=sample or all (run-overhead's MODE columns) the "on" blocks also time launches and
// copies on the GPU (events recorded around the call on its stream), and "writer" is every thread the tracer
// named cudatrace-*, so that a thread it may start to collect those events is counted as well.
#include <algorithm>
#include <chrono>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include "quantile.h"

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "overhead: %s failed: %s\n", #call, cudaGetErrorString(err_));               \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

__global__ void emptyKernel(void) {}

static double now_us(void)
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static long arg_or(int argc, char **argv, int i, long fallback)
{
    if (argc <= i)
        return fallback;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (*end != '\0' || v <= 0) {
        fprintf(stderr, "overhead: argument %d must be a positive count, not '%s'\n", i, argv[i]);
        exit(2);
    }
    return v;
}

// CPU time the tracer's own threads (named "cudatrace-*": the writer, cudatrace-wr, and any other it starts)
// have run, in ns (their schedstat); -1 when there is none (no tracer) or no schedstat can be read.
static double writer_cpu_ns(void)
{
    DIR *dir = opendir("/proc/self/task");
    struct dirent *e;
    double ns = -1;

    while (dir && (e = readdir(dir))) {
        char path[300], name[32] = "";
        unsigned long long run;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (!fgets(name, sizeof name, f) || strncmp(name, "cudatrace-", 10) != 0) {
            fclose(f);
            continue;
        }
        fclose(f);
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%llu", &run) == 1)
                ns = (ns < 0 ? 0 : ns) + (double)run;
            fclose(f);
        }
    }
    if (dir)
        closedir(dir);
    return ns;
}

static double quantile(const std::vector<double> &sorted, double p)
{
    return bench_quantile(sorted.data(), sorted.size(), p);
}

static double median(std::vector<double> v)
{
    bench_sort(v.data(), v.size());
    return quantile(v, 0.5);
}

// -p: `calls` calls of `body` (which makes n calls) in `pairs` pairs of blocks, tracing off and on (see the top).
template <typename F> static void in_process(const char *phase, long calls, long pairs, F body)
{
    const long per = calls / (2 * pairs) > 0 ? calls / (2 * pairs) : 1;
    std::vector<double> off_us, on_us;

    const double w0 = writer_cpu_ns();
    for (long p = 0; p < pairs; p++)
        for (int k = 0; k < 2; k++) {
            const bool on = (p % 2 == 0) == (k == 1);
            CHECK(cudaDeviceSynchronize()); // each block starts with the GPU idle
            CHECK(on ? cudaProfilerStart() : cudaProfilerStop());
            const double t0 = now_us();
            body(per);
            (on ? on_us : off_us).push_back((now_us() - t0) / per);
        }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStop());
    usleep(300000); // the writer's interval is 100 ms by default: it writes what the phase left meanwhile
    const double w1 = writer_cpu_ns();
    if ((w0 < 0 || w1 < 0) && getenv("CUDATRACE_CAPTURE"))
        fprintf(stderr, "overhead: no CPU time of the tracer's threads (no cudatrace-* thread, or no schedstat): "
                        "%s_ratio leaves it out\n", phase);
    const double writer_ns = w0 < 0 || w1 < 0 ? 0 : (w1 - w0) / (double)(pairs * per);
    std::vector<double> ratio;
    for (long p = 0; p < pairs; p++)
        ratio.push_back((on_us[p] + writer_ns / 1000.0) / off_us[p]);
    bench_sort(ratio.data(), ratio.size());
    printf("%s_off_us=%.4f\n%s_on_us=%.4f\n%s_writer_ns=%.1f\n", phase, median(off_us), phase, median(on_us), phase,
           writer_ns);
    printf("%s_ratio=%.4f\n%s_ratio_q1=%.4f\n%s_ratio_q3=%.4f\n", phase, quantile(ratio, 0.5), phase,
           quantile(ratio, 0.25), phase, quantile(ratio, 0.75));
}

int main(int argc, char **argv)
{
    long pin_cpu = -1, pairs_in_process = 0;
    while (argc > 2 && (strcmp(argv[1], "-c") == 0 || strcmp(argv[1], "-p") == 0)) {
        char *end;
        const bool cpu = argv[1][1] == 'c';
        const long v = strtol(argv[2], &end, 10);
        if (*end != '\0' || (cpu ? v < 0 || v >= CPU_SETSIZE : v < 1)) {
            fprintf(stderr, "overhead: %s takes %s, not '%s'\n", argv[1], cpu ? "a CPU number" : "a count of pairs",
                    argv[2]);
            exit(2);
        }
        (cpu ? pin_cpu : pairs_in_process) = v;
        argv[2] = argv[0];
        argc -= 2;
        argv += 2;
    }
    const long launches = arg_or(argc, argv, 1, 200000);
    const long pairs = arg_or(argc, argv, 2, 20000);
    const long copies = arg_or(argc, argv, 3, 50000);

    // Warm up: context creation, module load and the first launch stay out of the timed loops.
    CHECK(cudaFree(0));
    emptyKernel<<<1, 1>>>();
    CHECK(cudaStreamSynchronize(0));
    if (pin_cpu >= 0) { // after start-up, so that the threads it made keep the process's whole mask
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(pin_cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            perror("overhead: sched_setaffinity");
            exit(1);
        }
    }

    if (pairs_in_process) {
        unsigned char host[256] = {0};
        void *dev;
        in_process("launch", launches, pairs_in_process, [](long n) {
            for (long i = 0; i < n; i++)
                emptyKernel<<<1, 1>>>();
        });
        in_process("malloc_free", pairs, pairs_in_process, [](long n) {
            for (long i = 0; i < n; i++) {
                void *p;
                CHECK(cudaMalloc(&p, 256));
                CHECK(cudaFree(p));
            }
        });
        // Allocated here, as below: while another allocation lives, the runtime keeps its memory and the
        // malloc+free pairs cost some 5 µs instead of some 90.
        CHECK(cudaMalloc(&dev, sizeof host));
        in_process("memcpy_h2d", copies, pairs_in_process, [&](long n) {
            for (long i = 0; i < n; i++)
                CHECK(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice));
        });
        CHECK(cudaGetLastError());
        CHECK(cudaFree(dev));
        return 0;
    }

    const long blocks = launches >= 50 ? 50 : 1;
    std::vector<double> block_us;
    double t0 = now_us(), tb = t0;
    for (long b = 0; b < blocks; b++) {
        const long n = launches / blocks + (b < launches % blocks);
        for (long i = 0; i < n; i++)
            emptyKernel<<<1, 1>>>();
        const double te = now_us();
        block_us.push_back((te - tb) / n);
        tb = te;
    }
    CHECK(cudaStreamSynchronize(0));
    double t1 = now_us();
    CHECK(cudaGetLastError());
    std::nth_element(block_us.begin(), block_us.begin() + blocks / 2, block_us.end());
    printf("launch_us=%.4f\n", (t1 - t0) / launches);
    printf("launch_blockmed_us=%.4f\n", block_us[blocks / 2]);

    t0 = now_us();
    for (long i = 0; i < pairs; i++) {
        void *p;
        CHECK(cudaMalloc(&p, 256));
        CHECK(cudaFree(p));
    }
    t1 = now_us();
    printf("malloc_free_us=%.4f\n", (t1 - t0) / pairs);

    unsigned char host[256] = {0};
    void *dev;
    CHECK(cudaMalloc(&dev, sizeof host));
    t0 = now_us();
    for (long i = 0; i < copies; i++)
        CHECK(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice));
    t1 = now_us();
    printf("memcpy_h2d_us=%.4f\n", (t1 - t0) / copies);
    CHECK(cudaFree(dev));
    return 0;
}
