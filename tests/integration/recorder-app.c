/* A stand-in for a traced program: T threads make N call records each through the recorder (api ids cycling
 * through tests/integration/recorder-variants.c, with their payloads), then it can fork, exec, wait for a signal or
 * exit in various ways, as the recorder-*.sh tests ask.
 *
 *   recorder-app [-t THREADS] [-n RECORDS] [-s NS] [-p] [-m] [-F] [-w READYFILE] [-k] [-x STATUS] [-2 FILE]
 *                [PROG ARGS...]
 *     -s  make a record every NS nanoseconds (a busy wait), not as fast as possible
 *     -p  plain calls only (cuInit, no payload: 48 bytes each)
 *     -m  also intern a kernel name, note driver, device and an untraced symbol
 *     -F  fork after recording: the child makes N records of its own, the parent waits for it and makes
 *         N more
 *     -L  with -F, fork from a SIGUSR2 handler while the recorder's intern table is locked: by the thread the
 *         signal interrupts (self), or by another thread that holds it for 5 s (other), as a fork from a
 *         signal handler can find it
 *     -w  after recording, create READYFILE and sleep until a signal ends the process
 *     -k  leave T threads recording without end while main returns
 *     -V  vfork after recording: the child closes every descriptor above 2 (as Python's subprocess does)
 *         and execs /bin/true; the parent waits for it and makes N more records
 *     -C  after recording, close every descriptor above 2 (as daemons do), wait for a drain, make N more
 *     -R  the same with the close system call itself, past the tracer's close hook
 *     -x  exit status of main (and of the forked child)
 *     -2  before recording, close descriptor 2 and open FILE there (a data file of its own), writing "data"
 *     -H  before recording, install a SIGHUP handler whose flags lack SA_RESTART and whose mask holds SIGUSR1;
 *         after recording, exit 68 unless SIGHUP's disposition still has those flags and that mask
 *     -E  how to exec PROG: v (execv, the default), l (execl), p (execlp), e (execle, with this environment),
 *         f (fexecve of PROG opened); l, p and e pass at most 4 ARGS
 *     PROG ARGS...  exec it after recording
 * Nothing on stdout. */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
#include <unistd.h>

#include "recorder/intern.h"
#include "recorder/recorder.h"
#include "recorder_variants.h"

static int with_meta, plain;
static long fork_records;
static int fork_status, fork_failed;
static _Atomic int other_holds;
static long spacing_ns;
static uint32_t kernel_id;

/* One call record of variant `api`, its payload filled from `i`. */
static void record(unsigned api, uint64_t i)
{
    unsigned fam = ct_variants[api].family;
    size_t pl = fam == CT_FAM_ALLOC    ? sizeof(struct ct_pl_alloc)
                : fam == CT_FAM_FREE   ? sizeof(struct ct_pl_free)
                : fam == CT_FAM_LAUNCH ? sizeof(struct ct_pl_launch)
                : fam == CT_FAM_COPY   ? sizeof(struct ct_pl_copy)
                                       : 0;
    uint64_t t0 = ct_now(), t1 = ct_now();
    struct ct_rec_call *c = ct_rec_begin(sizeof *c + pl);

    if (!c)
        return;
    ct_rec_fill_call(c, sizeof *c + pl, (uint16_t)api, (uint8_t)fam, 0, t0, t1);
    memset(c + 1, 0, pl);
    if (fam == CT_FAM_ALLOC) {
        struct ct_pl_alloc *a = (void *)(c + 1);
        a->bytes = 4096 + i;
        a->address = 0x7f0000000000ull + i * 4096;
        a->kind = CT_MEM_DEVICE;
    } else if (fam == CT_FAM_LAUNCH) {
        struct ct_pl_launch *l = (void *)(c + 1);
        l->name_id = kernel_id;
        l->grid[0] = 4, l->grid[1] = l->grid[2] = 1;
        l->block[0] = 256, l->block[1] = l->block[2] = 1;
        l->kind = CT_LAUNCH_KERNEL;
    } else if (fam == CT_FAM_COPY) {
        struct ct_pl_copy *k = (void *)(c + 1);
        k->bytes = 256;
        k->flags = CT_COPY_ASYNC;
        k->src_kind = CT_MEM_HOST, k->dst_kind = CT_MEM_DEVICE;
        k->src_device = k->dst_device = -1;
    }
    ct_rec_commit(c);
}

/* arg: records to make, or -1 for no end. */
static void *worker(void *arg)
{
    long n = (long)(intptr_t)arg;
    uint64_t next = ct_now_ns();
    for (long i = 0; n < 0 || i < n; i++) {
        if (spacing_ns) {
            while (ct_now_ns() < next) {
            }
            next += (uint64_t)spacing_ns;
        }
        record(plain ? 0 : (unsigned)(i % ct_variant_count), (uint64_t)i);
    }
    return NULL;
}

static void close_all_above_2(int raw)
{
    struct rlimit rl;
    int max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
    for (int fd = 3; fd < max; fd++)
        if (raw)
            syscall(SYS_close, fd);
        else
            close(fd);
}

static void run_threads(int threads, long n);

/* -L: the fork, from a signal handler.  The child records and exits without running exit handlers. */
static void fork_in_handler(int sig)
{
    int st;
    (void)sig;
    const pid_t pid = fork();
    if (pid == 0) {
        run_threads(1, fork_records);
        _exit(fork_status);
    }
    fork_failed = pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != fork_status;
}

/* -L other: a thread that holds the intern table's lock for 5 s. */
static void *hold_intern(void *arg)
{
    (void)arg;
    const int taken = ct_intern_fork_lock();
    other_holds = 1;
    nanosleep(&(struct timespec){5, 0}, NULL);
    ct_intern_fork_unlock(taken, 0);
    return NULL;
}

/* vfork: the child runs in our memory until it execs; the recorder's exec hook must leave our state be. */
static int vfork_exec(void)
{
    int st;
    pid_t pid = vfork();
    if (pid == 0) {
        char *const argv[] = {"true", NULL};
        close_all_above_2(0);
        execv("/bin/true", argv);
        _exit(127);
    }
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void on_hup(int sig) { (void)sig; }

/* -H: the tracer wraps a handler installed before tracing started; the program must not see other semantics. */
static void set_hup(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_hup;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sigaction(SIGHUP, &sa, NULL);
}

static int hup_kept(void)
{
    struct sigaction sa;
    return sigaction(SIGHUP, NULL, &sa) == 0 && !(sa.sa_flags & SA_RESTART) && (sa.sa_flags & SA_NODEFER) &&
           sigismember(&sa.sa_mask, SIGUSR1) == 1;
}

static void run_threads(int threads, long n)
{
    pthread_t t[256];
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)n);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
    int threads = 1, do_fork = 0, do_vfork = 0, do_close = 0, keep = 0, status = 0, hup = 0, opt;
    long records = 1000;
    const char *ready = NULL, *data2 = NULL, *locked = NULL;

    char how = 'v';
    while ((opt = getopt(argc, argv, "+t:n:s:pmFL:VCRw:kx:HE:2:")) != -1) {
        switch (opt) {
        case 't': threads = atoi(optarg); break;
        case 'n': records = atol(optarg); break;
        case 's': spacing_ns = atol(optarg); break;
        case 'p': plain = 1; break;
        case 'm': with_meta = 1; break;
        case 'F': do_fork = 1; break;
        case 'L': locked = optarg; break;
        case 'V': do_vfork = 1; break;
        case 'C': do_close = 1; break;
        case 'R': do_close = 2; break;
        case 'w': ready = optarg; break;
        case 'k': keep = 1; break;
        case 'x': status = atoi(optarg); break;
        case 'H': hup = 1; break;
        case 'E': how = optarg[0]; break;
        case '2': data2 = optarg; break;
        default: return 64;
        }
    }
    if (threads < 1 || threads > 256 || records < 0)
        return 64;
    if (hup)
        set_hup();
    if (data2) {
        close(2);
        if (open(data2, O_WRONLY | O_CREAT | O_TRUNC, 0600) != 2 || write(2, "data\n", 5) != 5)
            return 66;
    }
    if (with_meta) {
        static const uint8_t uuid[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        kernel_id = ct_rec_intern(CT_STR_KERNEL, "vecAdd");
        ct_rec_driver(13000, 1);
        ct_rec_device(0, "Simulated GPU 80GB", uuid, 80ull << 30);
        ct_rec_untraced("cuGetExportTable");
    }
    run_threads(threads, records);
    if (hup && !hup_kept())
        return 68;
    if (do_fork && locked) {
        fork_records = records;
        fork_status = status;
        signal(SIGUSR2, fork_in_handler);
        if (strcmp(locked, "self") == 0) {
            const int taken = ct_intern_fork_lock();
            raise(SIGUSR2);
            ct_intern_fork_unlock(taken, 0);
        } else {
            pthread_t th;
            if (pthread_create(&th, NULL, hold_intern, NULL) != 0)
                return 65;
            while (!other_holds)
                sched_yield();
            raise(SIGUSR2);
            pthread_join(th, NULL);
        }
        if (fork_failed)
            return 65;
        run_threads(1, records);
    } else if (do_fork) {
        int st;
        pid_t pid = fork();
        if (pid == 0) {
            run_threads(1, records);
            return status;
        }
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != status)
            return 65;
        run_threads(1, records);
    }
    if (do_vfork) {
        if (vfork_exec() < 0)
            return 67;
        run_threads(1, records);
    }
    if (do_close) {
        const struct timespec drain = {0, 50 * 1000 * 1000}; /* several writer intervals */
        close_all_above_2(do_close == 2);
        nanosleep(&drain, NULL);
        run_threads(1, records);
    }
    if (optind < argc) {
        char *a[5] = {NULL}; /* argv[0] and up to 4 arguments, for the execl forms */
        for (int i = 0; i < 5 && optind + i < argc; i++)
            a[i] = argv[optind + i];
        switch (how) {
        case 'l': execl(argv[optind], a[0], a[1], a[2], a[3], a[4], (char *)NULL); break;
        case 'p': execlp(argv[optind], a[0], a[1], a[2], a[3], a[4], (char *)NULL); break;
        case 'e': execle(argv[optind], a[0], a[1], a[2], a[3], a[4], (char *)NULL, environ); break;
        case 'f': {
            int fd = open(argv[optind], O_RDONLY | O_CLOEXEC);
            if (fd >= 0)
                fexecve(fd, argv + optind, environ);
            break;
        }
        default: execv(argv[optind], argv + optind); break;
        }
        return 66;
    }
    if (ready) {
        int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
        for (;;)
            pause();
    }
    if (keep) {
        pthread_t t;
        for (int i = 0; i < threads; i++)
            pthread_create(&t, NULL, worker, (void *)(intptr_t)-1);
    }
    return status;
}
