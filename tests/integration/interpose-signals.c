/* Driver calls from a signal handler that interrupts the program's own traced calls on the same thread.
 *
 *   interpose-signals SIGNALS COUNTFILE [fork|churn]
 *
 * The main thread makes driver calls in a loop (a copy, a set, two queries) while a second thread sends it
 * SIGNALS SIGUSR1s; the handler makes two driver calls of its own, which the simulated driver serves
 * without its lock or malloc (a handler that interrupted either and took it again would hang untraced
 * too).  At the end COUNTFILE gets the number of driver calls the program made (and of those the handler's), for the test to
 * compare with what the trace recorded plus what it counted lost.  Exits 1 if any call failed.  Prints one
 * line that does not depend on timing.  With `fork` the handler also forks a child that makes a driver call
 * and exits, and waits for it (exit status 0 expected): the tracer's fork handlers run in a signal handler
 * that may have interrupted the tracer itself.  With `churn` the loop also mallocs and frees between its
 * calls, so that signals land inside glibc's allocator: the handler's traced calls (a new call stack each
 * time the interrupted frames differ) must not use it. */
#include "config.h"

#include <cuda.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static _Atomic long handler_calls, failures;
static _Atomic int sender_done;
static long signals;
static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry spin(.param .u64 ns)\n{\n ret;\n}\n";
static int forking, churning;

static void on_usr1(int sig)
{
    const char *name;
    int v;
    (void)sig;
    if (cuDriverGetVersion(&v) != CUDA_SUCCESS || cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &name) != CUDA_SUCCESS)
        failures++;
    if (forking) {
        int st;
        const pid_t pid = fork();
        if (pid == 0)
            _exit(cuDriverGetVersion(&v) == CUDA_SUCCESS ? 0 : 1);
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            failures++;
    }
    handler_calls += 2;
}

/* One signal at a time, each sent once the previous one was handled, so that none merges into another
 * pending one: every signal runs the handler. */
static void *sender(void *arg)
{
    pthread_t target = *(pthread_t *)arg;
    for (long i = 0; i < signals; i++) {
        long before = handler_calls;
        pthread_kill(target, SIGUSR1);
        while (handler_calls == before)
            sched_yield();
    }
    sender_done = 1;
    return NULL;
}

int main(int argc, char **argv)
{
    static char host[256];
    long calls = 0;
    CUdevice dev;
    CUcontext ctx;
    pthread_t self = pthread_self(), th;
    struct sigaction sa;

    if (argc != 3 && !(argc == 4 && (strcmp(argv[3], "fork") == 0 || strcmp(argv[3], "churn") == 0)))
        return 64;
    signals = atol(argv[1]);
    forking = argc == 4 && argv[3][0] == 'f';
    churning = argc == 4 && argv[3][0] == 'c';
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS || cuCtxCreate(&ctx, NULL, 0, dev) != CUDA_SUCCESS)
        return 1;
    calls += 3;
    CUdeviceptr p;
    if (cuMemAlloc(&p, sizeof host) != CUDA_SUCCESS)
        return 1;
    calls++;
    CUmodule mod;
    CUfunction spin;
    if (cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS || cuModuleGetFunction(&spin, mod, "spin") != CUDA_SUCCESS)
        return 1;
    calls += 2;
    /* The signals start only now: the simulated driver mallocs in cuMemAlloc and cuModuleLoadData, and a
     * fork from a handler that interrupted malloc deadlocks in glibc's fork, traced or not.  The loop's
     * calls malloc nothing in the simulated driver. */
    if (pthread_create(&th, NULL, sender, &self) != 0)
        return 1;
    while (!sender_done) {
        CUdevice d;
        int v;
        if (cuMemcpyHtoD(p, host, sizeof host) != CUDA_SUCCESS || cuMemsetD8(p, 1, sizeof host) != CUDA_SUCCESS ||
            cuCtxGetDevice(&d) != CUDA_SUCCESS || cuDriverGetVersion(&v) != CUDA_SUCCESS)
            failures++;
        calls += 4;
        for (size_t i = 0; churning && i < 64; i++) {
            char *volatile b = malloc(16 + i * 40); /* volatile: the pair is not optimised away */
            free(b);
        }
        if (forking) { /* a launch too: GPU time's (the simulated driver allocates nothing for it) */
            unsigned long long ns = 1;
            void *args[] = {&ns};
            if (cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) != CUDA_SUCCESS)
                failures++;
            calls++;
        }
    }
    pthread_join(th, NULL);
    /* Block the signal before the last calls: a late one must not add calls after the count is taken. */
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
    if (cuMemFree(p) != CUDA_SUCCESS || cuCtxDestroy(ctx) != CUDA_SUCCESS)
        failures++;
    calls += 2;
    FILE *f = fopen(argv[2], "w");
    if (!f || fprintf(f, "%ld %ld\n", calls + handler_calls, (long)handler_calls) < 0 || fclose(f) != 0)
        return 1;
    printf("interpose-signals: %s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
