/* When the trace is flushed besides the writer's interval: process exit (a destructor, so it runs after
 * the program's and the CUDA runtime's atexit handlers), fork (pthread_atfork), and SIGTERM, SIGINT and
 * SIGHUP (a handler that flushes, then hands the signal to the program's handler or its default action). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "preload/recorder.h"
#include "preload/recorder_int.h"

static const int flush_signals[] = {SIGTERM, SIGINT, SIGHUP};
#define NSIGS (sizeof flush_signals / sizeof flush_signals[0])
static struct sigaction previous[NSIGS];

__attribute__((destructor)) static void at_exit(void)
{
    ct_rec_shutdown();
}

static void on_signal(int sig, siginfo_t *info, void *uc)
{
    const int saved = errno;
    unsigned i = 0;

    while (i < NSIGS && flush_signals[i] != sig)
        i++;
    if (i == NSIGS)
        return;
    const struct sigaction *prev = &previous[i];
    if (prev->sa_flags & SA_SIGINFO) {
        ct_rec_signal_flush(0);
        prev->sa_sigaction(sig, info, uc);
    } else if (prev->sa_handler == SIG_DFL) {
        /* The default action (termination) follows: close the file, then let the signal kill the
         * process once this handler returns and unblocks it, so the exit status is the signal's. */
        struct sigaction dfl;
        ct_rec_signal_flush(1);
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig);
    } else if (prev->sa_handler != SIG_IGN) {
        ct_rec_signal_flush(0);
        prev->sa_handler(sig);
    }
    errno = saved;
}

static void install_signal_handlers(void)
{
    for (unsigned i = 0; i < NSIGS; i++) {
        struct sigaction sa;
        if (sigaction(flush_signals[i], NULL, &previous[i]) != 0 || previous[i].sa_handler == SIG_IGN)
            continue; /* an ignored signal (nohup) stays ignored */
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        if (previous[i].sa_handler == SIG_DFL) {
            sa.sa_flags = SA_SIGINFO | SA_RESTART;
            sigemptyset(&sa.sa_mask);
        } else {
            /* The program's handler came first (tracing starts at the first driver call): keep its flags and
             * mask, so its system calls are interrupted (or restarted) and its signals blocked as before. */
            sa.sa_flags = previous[i].sa_flags | SA_SIGINFO;
            sa.sa_mask = previous[i].sa_mask;
        }
        sigaction(flush_signals[i], &sa, NULL);
    }
}

void ct_lifecycle_install(void)
{
    static int done;

    if (done) /* a forked child restarting its trace inherits all of this */
        return;
    done = 1;
    pthread_atfork(ct_rec_fork_prepare, ct_rec_fork_parent, ct_rec_fork_child);
    install_signal_handlers();
}
