/* The recorder's life: lazy start at the first record, flushes, shutdown at exit, the fork handlers, and
 * SIGTERM/SIGINT/SIGHUP (a handler that flushes, then hands the signal to the program's handler or its
 * default action).  Exit is a destructor, so it runs after the program's and the CUDA runtime's atexit
 * handlers.  The only code that moves ct_state (state.h). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "recorder/apis.h"
#include "recorder/drain.h"
#include "recorder/alloc.h"
#include "recorder/forklock.h"
#include "recorder/gpu.h"
#include "recorder/intern.h"
#include "recorder/meta_queue.h"
#include "recorder/recorder.h"
#include "recorder/rings.h"
#include "recorder/settings.h"
#include "recorder/pystack.h"
#include "recorder/stacks.h"
#include "recorder/state.h"
#include "recorder/tracefile.h"
#include "recorder/warn.h"
#include "recorder/writer.h"

static struct ct_settings cfg;
static int cfg_loaded;
static _Atomic uint32_t ranges_only; /* ct_rec_ranges_only: the header's CT_FEAT_CAPTURE_* bits */
static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;
static __thread int in_init __attribute__((tls_model("initial-exec")));

static void install(void);

/* ---- start, flush, stop ---- */

void ct_rec_ranges_only(int nvtx)
{
    atomic_store(&ranges_only, CT_FEAT_CAPTURE_RANGES | (nvtx ? CT_FEAT_CAPTURE_NVTX : 0));
}

static int start(void)
{
    if (ct_secure_mode())
        return -1; /* a set-user-ID program: passing calls on only, silently (settings.h) */
    if (!cfg_loaded) { /* once per process image: a forked child keeps its parent's settings and warnings */
        ct_settings_load(&cfg);
        cfg_loaded = 1;
    }
    if (ct_rings_start(cfg.buffer_size) < 0)
        return -1;
    const uint32_t ranges = atomic_load(&ranges_only), stacks = ct_stack_start(cfg.stacks, cfg.stack_depth);
    if (stacks && cfg.python_stacks && !ct_py_on)
        ct_pystack_start(cfg.stack_depth);
    if (ct_tf_open(&cfg, CT_FEAT_TIME_MONO | ranges | stacks | ct_apis_features()) < 0)
        return -1;
    ct_gpu_start(cfg.gpu_time, cfg.gpu_sample, cfg.cupti);
    install();
    if (ct_writer_start(cfg.flush_ms) < 0)
        ct_warn("cannot start the writer thread; records are written at exit only");
    return 0;
}

void ct_rec_attach(const struct ct_rec_client *c)
{
    const struct ct_rec_client *none = NULL;
    atomic_compare_exchange_strong(&ct_rec_client, &none, c); /* the first one stays */
}

void ct_rec_init(void)
{
    /* Without a client there is no variant table to write: not yet (the layer above attaches before its
     * first call into the recorder; a call that comes earlier is not recorded). */
    if (atomic_load(&ct_state) != CT_ST_UNINIT || in_init || !atomic_load(&ct_rec_client))
        return;
    in_init = 1; /* anything start() calls that records comes back here and finds tracing not yet on */
    /* Signals wait until the start is done: it allocates, opens files and starts threads, and a handler
     * that forked meanwhile would find glibc's locks held by this thread (alloc.h). */
    sigset_t old;
    ct_signals_block(&old);
    pthread_mutex_lock(&init_mu);
    if (atomic_load(&ct_state) == CT_ST_UNINIT)
        atomic_store(&ct_state, start() == 0 ? CT_ST_ON : CT_ST_OFF);
    pthread_mutex_unlock(&init_mu);
    ct_signals_restore(&old);
    in_init = 0;
}

/* How long a flush that cannot collect GPU spans itself waits for the writer's thread to (ct_writer_hand_gpu):
 * a collection takes milliseconds; one that takes longer is stuck behind a driver lock the interrupted
 * thread holds, and what it would have read is counted not completed. */
#define HAND_GPU_WAIT_MS 1000

void ct_rec_flush(void)
{
    if (atomic_load(&ct_state) != CT_ST_ON || !ct_tf_mine())
        return;
    if (ct_gpu_was_on())
        ct_writer_hand_gpu(CT_GPU_HAND_EXEC, HAND_GPU_WAIT_MS);
    if (!ct_drain_acquire(-1))
        return;
    /* As in a signal handler (exec is async-signal-safe, and so may come from one): no free, no lock. */
    if (atomic_load(&ct_state) == CT_ST_ON)
        ct_drain_all(0, 1);
    ct_drain_release();
}

void ct_rec_shutdown(void)
{
    int on = CT_ST_ON;

    /* From here ct_rec_begin returns NULL: records published before the last drain are kept, later ones
     * (threads still running after main returned) are not written. */
    if (!atomic_compare_exchange_strong(&ct_state, &on, CT_ST_DONE))
        return;
    ct_writer_stop();
    if (!ct_drain_acquire(-1))
        return;
    ct_drain_all(1, 0);
    ct_tf_close(cfg.quiet);
    ct_drain_release();
}

void ct_rec_gpu_finish(void)
{
    if (atomic_load(&ct_state) != CT_ST_ON || !ct_drain_acquire(-1))
        return;
    ct_gpu_collect_last();
    ct_drain_release();
}

#define SIGNAL_WAIT_MS 200   /* a drainer that starts or ends no write for this long, between writes, is stuck */
#define SIGNAL_WAIT_WRITE 10 /* one write is given this many times as long (a big one to a slow disk) */
#define SIGNAL_WAIT_MAX 50   /* a drainer still writing is waited for at most this many times as long */

/* The drain, for a signal handler: waited for while its holder makes progress, never when the holder is
 * the interrupted thread itself.  ct_tf_progress is odd while a write is in the kernel. */
static int acquire_in_signal(void)
{
    uint64_t seen = ct_tf_progress();
    int same = 0;

    for (int i = 0; i < SIGNAL_WAIT_MAX && !ct_drain_mine(); i++) {
        if (ct_drain_acquire(SIGNAL_WAIT_MS))
            return 1;
        const uint64_t now = ct_tf_progress();
        same = now == seen ? same + 1 : 0;
        if (same > 0 && (!(now & 1) || same >= SIGNAL_WAIT_WRITE))
            break;
        seen = now;
    }
    return 0;
}

/* Final flush from a signal handler (async-signal-safe): `last` when the signal's default action follows
 * (the file is closed and nothing is written after). */
static void signal_flush(int last)
{
    int on = CT_ST_ON;

    if (atomic_load(&ct_state) != CT_ST_ON)
        return;
    if (ct_gpu_was_on())
        ct_writer_hand_gpu(last ? CT_GPU_HAND_LAST : CT_GPU_HAND_SOON, HAND_GPU_WAIT_MS);
    if (!acquire_in_signal()) {
        /* The drainer is this very thread, or stuck: never wait on it.  Before the process dies, end the
         * file at its last whole record, with what was not written counted lost. */
        if (last && atomic_compare_exchange_strong(&ct_state, &on, CT_ST_DONE))
            ct_tf_give_up(ct_rings_unwritten(), cfg.quiet);
        return;
    }
    if (!last) {
        ct_drain_all(0, 1);
        ct_drain_release();
    } else if (atomic_compare_exchange_strong(&ct_state, &on, CT_ST_DONE)) {
        ct_drain_all(1, 1);
        ct_tf_close(cfg.quiet);
        /* The drain stays held: the process dies next and nothing may write after CT_REC_END. */
    } else {
        ct_drain_release();
    }
}

/* ---- fork ---- */

/* The locks held across fork, where they can be (forklock.h): which were taken. */
static struct {
    int init, rings, pystack, intern, stack;
} forked;

static void fork_prepare(void)
{
    forked.init = ct_fork_lock(&init_mu);
    forked.rings = ct_rings_fork_lock();
    forked.pystack = ct_pystack_fork_lock();
    forked.intern = ct_intern_fork_lock();
    forked.stack = ct_stack_fork_lock();
}

static void fork_unlock(int child)
{
    ct_stack_fork_unlock(forked.stack, child);
    ct_intern_fork_unlock(forked.intern, child);
    ct_pystack_fork_unlock(forked.pystack, child);
    ct_rings_fork_unlock(forked.rings, child);
    if (child)
        pthread_mutex_init(&init_mu, NULL);
    else
        ct_fork_unlock(&init_mu, forked.init);
}

static void fork_parent(void)
{
    fork_unlock(0);
    ct_fork_refused();
}

/* The child keeps none of the parent's records (the parent writes them), never touches the parent's file,
 * and starts its own file and writer at its first record.  A child forked while a lock was out of reach
 * (forklock.h: a fork from a signal handler) may hold tables half changed: it is not traced. */
static void fork_child(void)
{
    const int refused = ct_fork_refused();
    fork_unlock(1);
    if (refused && atomic_load(&ct_state) != CT_ST_DONE) {
        const int was_on = atomic_exchange(&ct_state, CT_ST_OFF) == CT_ST_ON;
        if (was_on)
            ct_tf_abandon();
        ct_writer_after_fork_child();
        ct_warn("this process (pid %d) was forked while the tracer was busy (from a signal handler?): "
                "it is not traced", (int)getpid());
        return;
    }
    if (atomic_load(&ct_state) != CT_ST_ON)
        return;
    ct_tf_abandon();
    ct_writer_after_fork_child();
    ct_drain_reset();
    ct_rings_after_fork_child();
    ct_meta_after_fork_child();
    ct_gpu_after_fork_child();
    ct_apis_after_fork_child();
    atomic_store(&ct_state, CT_ST_UNINIT);
}

/* ---- signals ---- */

static const int flush_signals[] = {SIGTERM, SIGINT, SIGHUP};
#define NSIGS (sizeof flush_signals / sizeof flush_signals[0])
static struct sigaction previous[NSIGS];

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
        signal_flush(0);
        prev->sa_sigaction(sig, info, uc);
    } else if (prev->sa_handler == SIG_DFL) {
        /* The default action (termination) follows: close the file, then let the signal kill the
         * process once this handler returns and unblocks it, so the exit status is the signal's. */
        struct sigaction dfl;
        signal_flush(1);
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig);
    } else if (prev->sa_handler != SIG_IGN) {
        signal_flush(0);
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

/* Once per process image: a forked child restarting its trace inherits all of this. */
static void install(void)
{
    static int done;

    if (done)
        return;
    done = 1;
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    install_signal_handlers();
}

__attribute__((destructor)) static void at_exit(void)
{
    ct_rec_shutdown();
}
