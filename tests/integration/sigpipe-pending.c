/* sigpipe-pending [pending]: blocks SIGPIPE (and with `pending` raises one, which stays pending), makes
 * driver calls, and requires SIGPIPE still blocked, and pending exactly when it raised one.  sigpipe.sh runs
 * it traced with stderr a pipe nobody reads and a bad setting, so that the tracer's warning meets EPIPE: the
 * tracer must take back the SIGPIPE its own write caused, and only that one.  Exit status 0 when so. */
#include "config.h"

#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const int raised = argc > 1 && strcmp(argv[1], "pending") == 0;
    sigset_t pipe_set, set;
    int v;

    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, NULL);
    if (raised)
        raise(SIGPIPE);
    if (cuInit(0) != CUDA_SUCCESS || cuDriverGetVersion(&v) != CUDA_SUCCESS) {
        puts("driver calls failed");
        return 1;
    }
    if (sigprocmask(SIG_BLOCK, NULL, &set) != 0 || sigismember(&set, SIGPIPE) != 1) {
        puts("SIGPIPE no longer blocked");
        return 1;
    }
    if (sigpending(&set) != 0 || sigismember(&set, SIGPIPE) != raised) {
        printf("SIGPIPE %s\n", raised ? "no longer pending" : "left pending");
        return 1;
    }
    return 0;
}
