/* A program that takes the tracer's descriptors, or needs its low ones.
 *
 *   interpose-fds steal N MYFILE COUNTFILE [closefrom]
 *       A thread makes driver calls while the main thread, N times 1 ms apart, finds the trace's descriptor
 *       (/proc/self/fd, $CUDATRACE_OUTPUT) and puts MYFILE on that number, by turns with dup2, dup3,
 *       close + F_DUPFD and close_range (closefrom with `closefrom`) + F_DUPFD, then writes one line
 *       ("<i>\n") through it and closes the number it took before.  COUNTFILE gets the number of driver calls
 *       made.  Untraced there is no trace: MYFILE is put on a number of its own.
 *   interpose-fds low
 *       Closes 0 and 1 after the driver started, makes the first allocation (the tracer's first call stack),
 *       then prints on stderr the descriptors two open()s get.
 *   interpose-fds limit
 *       At RLIMIT_NOFILE 16, set before any driver call: the first descriptor open() gets once the driver
 *       made an allocation, and how many files it can open.
 * Exits 1 if a driver call fails. */
#include "config.h"

#include <cuda.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static _Atomic int stop;
static _Atomic long failures;

static void *caller(void *arg)
{
    long *calls = arg;
    while (!atomic_load(&stop)) {
        int v, n;
        if (cuDriverGetVersion(&v) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS)
            failures++;
        *calls += 2;
        if (*calls % 32 == 0) /* bursts: a trace of megabytes, not gigabytes */
            nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    return NULL;
}

/* The descriptor open on `path`, other than `not`; -1 if none. */
static int find_fd(const char *path, int not)
{
    char link[PATH_MAX + 1], name[300];
    struct dirent *e;
    DIR *d = opendir("/proc/self/fd");
    int found = -1;

    while (d && found < 0 && (e = readdir(d)) != NULL) {
        const int fd = atoi(e->d_name);
        snprintf(name, sizeof name, "/proc/self/fd/%s", e->d_name);
        const ssize_t n = readlink(name, link, sizeof link - 1);
        if (e->d_name[0] == '.' || fd == not || fd == dirfd(d) || n <= 0)
            continue;
        link[n] = '\0';
        if (strcmp(link, path) == 0)
            found = fd;
    }
    if (d)
        closedir(d);
    return found;
}

static int steal(long n, const char *myfile, const char *countfile, int from)
{
    char trace[PATH_MAX];
    const char *out = getenv("CUDATRACE_OUTPUT");
    long calls = 3, thread_calls = 0;
    int taken = -1;
    CUdevice dev;
    CUcontext ctx;
    pthread_t th;

    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS || cuCtxCreate(&ctx, NULL, 0, dev) != CUDA_SUCCESS)
        return 1;
    const int mine = open(myfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (mine < 0 || pthread_create(&th, NULL, caller, &thread_calls) != 0)
        return 1;
    if (!out || !realpath(out, trace))
        trace[0] = '\0';
    for (long i = 0; i < n; i++) {
        int t = trace[0] ? find_fd(trace, -1) : -1;
        if (t < 0) /* untraced: a number of our own */
            t = 1000 + (int)(i % 8);
        if (taken >= 0 && taken != t)
            close(taken);
        switch (i % 4) {
        case 0: t = dup2(mine, t); break;
        case 1: t = dup3(mine, t, O_CLOEXEC); break;
        case 2: close(t), t = fcntl(mine, F_DUPFD_CLOEXEC, t); break;
        default:
            if (from)
                closefrom(t);
            else
                close_range((unsigned)t, (unsigned)t, 0);
            t = fcntl(mine, F_DUPFD_CLOEXEC, t);
            break;
        }
        char line[32];
        const int len = snprintf(line, sizeof line, "%ld\n", i);
        if (t < 0 || write(t, line, (size_t)len) != len)
            return 1;
        taken = t;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    atomic_store(&stop, 1);
    pthread_join(th, NULL);
    if (cuCtxDestroy(ctx) != CUDA_SUCCESS)
        failures++;
    calls++;
    FILE *f = fopen(countfile, "w");
    if (!f || fprintf(f, "%ld\n", calls + thread_calls) < 0 || fclose(f) != 0)
        return 1;
    return failures ? 1 : 0;
}

static int start_and_alloc(CUdeviceptr *p)
{
    CUdevice dev;
    CUcontext ctx;
    return cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&dev, 0) == CUDA_SUCCESS &&
                   cuCtxCreate(&ctx, NULL, 0, dev) == CUDA_SUCCESS && cuMemAlloc(p, 64) == CUDA_SUCCESS
               ? 0
               : 1;
}

static int low(void)
{
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr p;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS || cuCtxCreate(&ctx, NULL, 0, dev) != CUDA_SUCCESS)
        return 1;
    close(0);
    close(1);
    if (cuMemAlloc(&p, 64) != CUDA_SUCCESS)
        return 1;
    const int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_WRONLY);
    fprintf(stderr, "open: %d %d\n", a, b);
    return 0;
}

static int limit(void)
{
    struct rlimit rl;
    CUdeviceptr p;
    int first = -1, count = 0, fd;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1;
    rl.rlim_cur = 16;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || start_and_alloc(&p) != 0)
        return 1;
    while ((fd = open("/dev/null", O_RDONLY)) >= 0) {
        if (first < 0)
            first = fd;
        count++;
    }
    printf("first %d, files %d\n", first, count);
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc == 5 || (argc == 6 && strcmp(argv[5], "closefrom") == 0)) && strcmp(argv[1], "steal") == 0)
        return steal(atol(argv[2]), argv[3], argv[4], argc == 6);
    if (argc == 2 && strcmp(argv[1], "low") == 0)
        return low();
    if (argc == 2 && strcmp(argv[1], "limit") == 0)
        return limit();
    return 64;
}
