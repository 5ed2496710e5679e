// Shared by the GPU-time samples (rt_gpu_spin, rt_gpu_exact, rt_gpu_streams): kernels that time themselves with the GPU's
// %globaltimer (ns, the clock the profilers use: unlike clock64 it does not follow the SM clock's boost),
// and the figures file through which a sample hands its own measurements to its expectation.
#ifndef SAMPLES_GPU_TIMER_CUH
#define SAMPLES_GPU_TIMER_CUH

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

__device__ __forceinline__ unsigned long long gpu_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Spins for at least `ns` nanoseconds; stores the start and end stamps (ns) it saw.
__device__ __forceinline__ void gpu_spin(unsigned long long ns, unsigned long long *start, unsigned long long *end)
{
    const unsigned long long t0 = gpu_globaltimer();
    unsigned long long t = t0;
    while (t - t0 < ns)
        t = gpu_globaltimer();
    *start = t0;
    *end = t;
}

// A kernel of its own name per duration (the gpu_kernels table groups by name): its first thread spins for
// `ns` and writes the two stamps it saw to out[0] and out[1].
#define SPIN_KERNEL(name, ns)                                                                            \
    __global__ void name(unsigned long long *out)                                                        \
    {                                                                                                    \
        if (threadIdx.x == 0 && blockIdx.x == 0)                                                         \
            gpu_spin(ns, &out[0], &out[1]);                                                              \
    }
typedef void (*spin_fn)(unsigned long long *);

// Appends `KEY VALUE` lines to the file named by $CT_SAMPLE_FIGURES (the harness names one per run, see
// tests/gpu/run-gpu-tests), never to stdout: the harness compares stdout traced and untraced, and these
// figures are timings.  Without the variable the figures go to stderr.
static inline void sample_figure(const char *fmt, ...)
{
    const char *path = getenv("CT_SAMPLE_FIGURES");
    FILE *f = path && *path ? fopen(path, "a") : stderr;
    if (!f) {
        perror(path);
        exit(1);
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    if (f != stderr)
        fclose(f);
}

#endif
