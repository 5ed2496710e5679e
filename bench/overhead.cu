// Host cost per call of the three hot runtime paths, for comparing untraced and traced runs
// (bench/run-overhead alternates them).  Usage: overhead [-c CPU] [LAUNCHES [MALLOC_PAIRS [COPIES]]]
// -c CPU: after the warm-up, pin the calling thread (the one that launches) to CPU and leave the threads
// that start-up made (the driver's, the tracer's writer) where the scheduler puts them, as in a program
// that pins nothing; without it, pin the whole process from outside (taskset) to have them share one CPU.
// Prints `launch_us=`, `malloc_free_us=` and `memcpy_h2d_us=` lines (µs per call, per pair for malloc), and
// `launch_blockmed_us=`: the launches are timed in 50 blocks and this is the median block's µs per launch, a
// figure that a burst of host noise (another tenant, an interrupt storm) in a few blocks does not move.
#include <algorithm>
#include <chrono>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <sched.h>

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

int main(int argc, char **argv)
{
    long pin_cpu = -1;
    if (argc > 2 && strcmp(argv[1], "-c") == 0) {
        char *end;
        pin_cpu = strtol(argv[2], &end, 10);
        if (*end != '\0' || pin_cpu < 0 || pin_cpu >= CPU_SETSIZE) {
            fprintf(stderr, "overhead: -c takes a CPU number, not '%s'\n", argv[2]);
            exit(2);
        }
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
