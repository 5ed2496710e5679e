#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/alloc.h"
#include "recorder/clock.h"
#include "recorder/fdhigh.h"
#include "recorder/output.h"
#include "recorder/rank.h"
#include "recorder/settings.h"
#include "recorder/tracefile.h"
#include "recorder/variants.h"
#include "recorder/warn.h"

#define HIST CT_SPAN_LAST /* record boundaries remembered for a cut-back: 16 records are >= 128 bytes */
#define TAIL_ROOM (sizeof(struct ct_rec_lost) + sizeof(struct ct_rec_end))

static struct {
    int fd;
    pid_t pid;          /* the process that created the file */
    dev_t dev;          /* the file's identity, to notice a program closing or reusing our descriptor */
    ino_t ino;
    char path[PATH_MAX];
    uint64_t off;   /* bytes in the file, all of them whole records */
    uint64_t calls; /* call records in the file */
    uint64_t lost;  /* sum of the LOST records in the file, plus write losses */
    uint64_t untraced; /* the counts of the CT_REC_UNTRACED records appended */
    int failed;     /* after a write error: only count */
    int counting;   /* the file could not even take its header: there is none, the calls are only counted */
    uint64_t lost_off; /* where the write_error LOST record sits */
    uint64_t wlost, wfirst, wlast;
    struct { uint64_t off, count; uint8_t type; } hist[HIST]; /* circular */
    unsigned hist_n;   /* entries in use (at most HIST) */
    unsigned hist_i;   /* where the next one goes */
} tf = {.fd = -1};

/* Write calls begun and returned (odd while one is in the kernel): a signal flush waits while this moves.
 * Release before each write, so that a flush giving up on a stuck holder (acquire) sees the file's
 * bookkeeping as it was when that write began. */
static _Atomic uint64_t progress;
static __thread int thread_blocks_signals;

void ct_tf_thread_blocks_signals(void) { thread_blocks_signals = 1; }

/* ---- the descriptor's lock ----
 *
 * tf.fd is a number, and a program may put a file of its own on that number (dup2, dup3) or close it at any
 * moment.  fd_hooks.c catches those calls: ct_tf_range_begin moves the trace to another number first.  Every
 * system call on tf.fd, and every change of it, holds fd_lock, so that no write goes by a number the
 * program has just taken.  The holder has every signal blocked (the writer thread always has), so a signal
 * handler that closes or dup2s never runs on the thread that holds the lock: waiting for it cannot
 * deadlock.  The holder does nothing but system calls on the file; it may wait only on the kernel. */
_Atomic int ct_tf_fdnum = -1; /* tf.fd, for the hooks' unlocked compare; CT_TF_DETACHED as said there */
static _Atomic int fd_lock;

static int detached(void) { return atomic_load_explicit(&ct_tf_fdnum, memory_order_acquire) == CT_TF_DETACHED; }

struct fd_guard { sigset_t old; int masked, locked; };

static void set_fd(int fd)
{
    tf.fd = fd;
    atomic_store_explicit(&ct_tf_fdnum, fd, memory_order_release);
}

/* Block signals and take the lock; wait_ms < 0: as long as it takes, else give up after about wait_ms (the
 * caller then goes on without it: see ct_tf_give_up). */
static void fd_enter(struct fd_guard *g, int wait_ms)
{
    g->masked = !thread_blocks_signals;
    if (g->masked)
        ct_signals_block(&g->old);
    for (long naps = 0;; naps++) {
        int expected = 0;
        if (atomic_compare_exchange_weak_explicit(&fd_lock, &expected, 1, memory_order_acquire,
                                                  memory_order_relaxed)) {
            g->locked = 1;
            return;
        }
        if (wait_ms >= 0 && naps >= (long)wait_ms * 20) {
            g->locked = 0;
            return;
        }
        nanosleep(&(struct timespec){0, 50000}, NULL);
    }
}

/* After EFBIG the kernel queued SIGXFSZ for this thread: take it before unblocking (kept from the program). */
static void fd_leave(struct fd_guard *g, int err)
{
    if (g->locked)
        atomic_store_explicit(&fd_lock, 0, memory_order_release);
    if (err == EFBIG) {
        sigset_t s;
        struct timespec zero = {0, 0};
        sigemptyset(&s);
        sigaddset(&s, SIGXFSZ);
        while (sigtimedwait(&s, NULL, &zero) == SIGXFSZ) {
        }
    }
    if (g->masked)
        ct_signals_restore(&g->old);
}

static void reattach_locked(void);
static void say_reattached(void);

/* writev all of iov; returns the bytes written and sets *err on failure (0 when all went out). */
static size_t write_all(const struct iovec *in, int n, int *err)
{
    struct iovec iov[4];
    struct fd_guard g;
    size_t done = 0;
    int i = 0, reopened = 0;

    if (n > 4)
        n = 4; /* callers pass at most 3 spans */
    memcpy(iov, in, (size_t)n * sizeof *iov);
    *err = 0;
    fd_enter(&g, -1);
    if (detached()) { /* the program took our number while no other was free */
        reattach_locked();
        reopened = 1;
    }
    if (tf.fd < 0)
        *err = EBADF, i = n;
    while (i < n) {
        atomic_fetch_add_explicit(&progress, 1, memory_order_release);
        ssize_t w = writev(tf.fd, iov + i, n - i);
        atomic_fetch_add_explicit(&progress, 1, memory_order_release);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            *err = w < 0 ? errno : ENOSPC;
            break;
        }
        done += (size_t)w;
        size_t left = (size_t)w;
        while (i < n && left >= iov[i].iov_len)
            left -= iov[i++].iov_len;
        if (i < n) {
            iov[i].iov_base = (char *)iov[i].iov_base + left;
            iov[i].iov_len -= left;
        }
    }
    fd_leave(&g, *err);
    if (reopened) /* said once the lock is given back */
        say_reattached();
    return done;
}

static void pwrite_quiet(const void *buf, size_t len, uint64_t off)
{
    struct fd_guard g;
    ssize_t w = 0;
    fd_enter(&g, -1);
    if (tf.fd >= 0)
        do
            w = pwrite(tf.fd, buf, len, (off_t)off);
        while (w < 0 && errno == EINTR);
    fd_leave(&g, w < 0 ? errno : 0);
}

/* ---- the descriptor: kept out of the program's way ---- */

static void remember_identity(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0) {
        tf.dev = st.st_dev;
        tf.ino = st.st_ino;
    }
}

static int is_our_file(int fd)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == tf.dev && st.st_ino == tf.ino;
}

static int have_file(void)
{
    return atomic_load_explicit(&ct_tf_fdnum, memory_order_acquire) != -1;
}

int ct_tf_mine(void)
{
    return have_file() && getpid() == tf.pid;
}

/* Holding fd_lock: open the file again by name if it is still ours (same device and inode), at tf.off. */
static void reattach_locked(void)
{
    int fd = open(tf.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0 && (!is_our_file(fd) || lseek(fd, (off_t)tf.off, SEEK_SET) < 0)) {
        ct_fd_close_raw(fd);
        fd = -1;
    }
    set_fd(fd >= 0 ? ct_fd_move_high(fd) : -1);
}

static void say_reattached(void)
{
    ct_warn("the program closed the descriptor of %s; %s", tf.path,
            have_file() ? "reopened it" : "the rest of the trace is counted as lost");
}

/* The backstop behind the descriptor hooks (fd_hooks.c), once per drain: a program that closed our number
 * or put a file of its own there by a route the hooks do not see (a raw system call, libc's own calls):
 * never write through that number again; reopen the file by name if it is still ours, else count the rest
 * as lost. */
void ct_tf_verify(void)
{
    struct fd_guard g;
    int again = 0;

    if (tf.failed || !have_file())
        return;
    fd_enter(&g, -1);
    if (detached() || !is_our_file(tf.fd)) {
        reattach_locked();
        again = 1;
        if (tf.fd < 0) /* no file to write the LOST and END records to: the counts reach stderr only */
            tf.failed = tf.counting = 1, tf.lost_off = tf.off;
    }
    fd_leave(&g, 0);
    if (again)
        say_reattached();
}

/* Holding fd_lock: if the trace's number is in lo..hi, move the trace above hi (at or above the floor), or
 * detach it when no number there is free; 1 when detached. */
static int step_aside_locked(int lo, int hi)
{
    if (tf.fd < lo || tf.fd > hi)
        return 0;
    const int floor = ct_fd_floor();
    int to = -1;
    /* One number: anywhere else, from the floor up first.  A range: above it (none above INT_MAX). */
    const int above = hi < INT_MAX ? hi + 1 : -1;
    const int from = lo == hi || hi < floor ? floor : above, again = lo == hi ? 0 : above;
    if (from >= 0)
        to = fcntl(tf.fd, F_DUPFD_CLOEXEC, from);
    if (to < 0 && again >= 0)
        to = fcntl(tf.fd, F_DUPFD_CLOEXEC, again); /* nothing free from the floor up */
    set_fd(to < 0 ? CT_TF_DETACHED : to); /* the old number is left to the program's call */
    return to < 0;
}

/* Close the trace's descriptor, if any, under the lock: no hook may move it meanwhile. */
static void drop_fd(void)
{
    struct fd_guard g;
    fd_enter(&g, -1);
    if (tf.fd >= 0)
        ct_fd_close_raw(tf.fd);
    set_fd(-1);
    fd_leave(&g, 0);
}

static struct fd_guard range_guard; /* while a program's call holds fd_lock: one at a time */

int ct_tf_range_begin(unsigned lo, unsigned hi)
{
    struct fd_guard g;
    const int fd = atomic_load_explicit(&ct_tf_fdnum, memory_order_acquire);

    /* Detached, the trace may be in the middle of its reopen by name, on whatever free number open() and
     * the move high gave: the program's call, whatever numbers it names, waits for it. */
    if (getpid() != tf.pid || (fd != CT_TF_DETACHED && (fd < 0 || (unsigned)fd < lo || (unsigned)fd > hi)))
        return 0;
    fd_enter(&g, -1);
    if (!detached() && !step_aside_locked((int)lo, hi > INT_MAX ? INT_MAX : (int)hi)) {
        fd_leave(&g, 0);
        return 0;
    }
    /* Detached, now or by the move: the program's call runs under the lock, so that the reopen by name (at
     * the next write) cannot land on a number the call is about to close or replace. */
    range_guard = g;
    return 1;
}

void ct_tf_range_end(void)
{
    struct fd_guard g = range_guard;
    fd_leave(&g, 0);
}

/* ---- accounting ---- */

static uint64_t lost_count_of(const struct ct_rec_hdr *h)
{
    return h->type == CT_REC_LOST ? ((const struct ct_rec_lost *)h)->count : 0;
}

/* Pointers handed back untraced count for the END record whether or not their note reached the file. */
static void count_untraced(const struct ct_rec_hdr *h)
{
    if (h->type == CT_REC_UNTRACED)
        tf.untraced += ((const struct ct_rec_untraced *)h)->count;
}

/* A record now in the file at `off`: remember its boundary for a cut-back (its counts are the caller's). */
static void remember(const struct ct_rec_hdr *h, uint64_t off)
{
    tf.hist[tf.hist_i].off = off;
    tf.hist[tf.hist_i].type = h->type;
    tf.hist[tf.hist_i].count = lost_count_of(h);
    tf.hist_i = (tf.hist_i + 1) % HIST;
    if (tf.hist_n < HIST)
        tf.hist_n++;
}

static void in_file(const struct ct_rec_hdr *h, uint64_t off)
{
    count_untraced(h);
    if (ct_rec_is_call(h->type))
        tf.calls++;
    tf.lost += lost_count_of(h);
    remember(h, off);
}

/* How many calls a record that does not reach the file stands for: a LOST record, the losses it reported;
 * a call record, one; metadata (names, stacks, the API table), none: "N calls, M lost" counts calls. */
static uint64_t weight(unsigned type, uint64_t lost_count)
{
    return type == CT_REC_LOST ? lost_count : ct_rec_is_call(type) ? 1 : 0;
}

/* A record that will not be in the file counts as a write loss. */
static void not_written(const struct ct_rec_hdr *h)
{
    uint64_t t = h->type == CT_REC_CALL            ? ((const struct ct_rec_call *)h)->t0_ns
                 : h->type == CT_REC_LAUNCH_REPEAT ? ((const struct ct_rec_launch_repeat *)h)->t0_ns
                                                   : 0;
    count_untraced(h);
    tf.wlost += weight(h->type, lost_count_of(h));
    if (t) {
        if (!tf.wfirst || t < tf.wfirst)
            tf.wfirst = t;
        if (t > tf.wlast)
            tf.wlast = t;
    }
}

/* The LOST record of what was not written (tf.wlost). */
static void make_lost_record(struct ct_rec_lost *l, unsigned reason)
{
    /* call times are ticks (clock.h) */
    ct_put_lost(l, 0, tf.wlost, tf.wfirst ? ct_clock_ns(tf.wfirst) : 0, tf.wlast ? ct_clock_ns(tf.wlast) : 0,
                reason);
}

static void put_lost_record(void)
{
    struct ct_rec_lost l;
    make_lost_record(&l, CT_LOST_WRITE_ERROR);
    pwrite_quiet(&l, sizeof l, tf.lost_off);
}

/* The END record with the totals as they are now. */
static void make_end_record(struct ct_rec_end *e)
{
    memset(e, 0, sizeof *e);
    ct_put_hdr(&e->h, CT_REC_END, sizeof *e, 0);
    e->untraced = tf.untraced;
    e->end_mono_ns = (int64_t)ct_now_ns();
    e->calls = tf.calls;
    e->lost = tf.lost + tf.wlost;
}

/* Walk the records of a span. */
#define FOR_RECORDS(h, base, len)                                                                            \
    for (const struct ct_rec_hdr *h = (const void *)(base);                                                  \
         (const unsigned char *)h < (const unsigned char *)(base) + (len) && h->size;                         \
         h = (const void *)((const unsigned char *)h + h->size))

/* A write failed with `err` after the file reached `good_end` (whole records end at tf.off). */
static void write_failed(int err, uint64_t good_end)
{
    uint64_t cut = tf.off;

    /* Cut back to the newest boundary that leaves TAIL_ROOM below the point the file did reach. */
    while (cut + TAIL_ROOM > good_end && tf.hist_n > 0) {
        const unsigned k = tf.hist_i = (tf.hist_i + HIST - 1) % HIST;
        tf.hist_n--;
        cut = tf.hist[k].off;
        if (ct_rec_is_call(tf.hist[k].type))
            tf.calls--;
        tf.lost -= tf.hist[k].count;
        tf.wlost += weight(tf.hist[k].type, tf.hist[k].count);
    }
    struct fd_guard g;
    fd_enter(&g, -1);
    if (tf.fd >= 0 && ftruncate(tf.fd, (off_t)cut) == 0)
        tf.off = cut;
    if (tf.fd >= 0)
        lseek(tf.fd, (off_t)tf.off, SEEK_SET);
    else
        tf.counting = 1; /* no descriptor for the LOST and END records: the count reaches stderr only */
    fd_leave(&g, 0);
    tf.failed = 1;
    tf.lost_off = tf.off;
    put_lost_record();
    ct_warn("cannot write %s: %s; the rest of the trace is counted as lost", tf.path, strerror(err));
}

/* The record that starts `at` bytes into the spans, joined. */
static const struct ct_rec_hdr *joined_at(const struct iovec *iov, int n, uint64_t at)
{
    for (int i = 0; i < n; at -= iov[i++].iov_len)
        if (at < iov[i].iov_len)
            return (const void *)((const unsigned char *)iov[i].iov_base + at);
    return NULL;
}

/* After a write of the spans (`total` bytes) at tf.off that got `done` bytes out: the records wholly
 * written are in the file, the rest are lost, and a short write (error err) cuts the file back. */
static void account(const struct iovec *iov, int n, size_t total, size_t done, int err)
{
    uint64_t base = tf.off, pos = 0;

    for (int i = 0; i < n; i++) {
        FOR_RECORDS(h, iov[i].iov_base, iov[i].iov_len) {
            if (pos + h->size <= done) {
                in_file(h, base + pos);
                tf.off = base + pos + h->size;
            } else {
                not_written(h);
            }
            pos += h->size;
        }
    }
    if (done < total)
        write_failed(err, base + done);
}

void ct_tf_append(const struct iovec *iov, int n) { ct_tf_append_seen(iov, n, NULL); }

void ct_tf_append_seen(const struct iovec *iov, int n, const struct ct_span_stats *st)
{
    size_t total = 0, done;
    int err;

    if ((!have_file() && !tf.counting) || n <= 0)
        return;
    if (tf.failed) {
        for (int i = 0; i < n; i++)
            FOR_RECORDS(h, iov[i].iov_base, iov[i].iov_len) not_written(h);
        if (!tf.counting)
            put_lost_record();
        return;
    }
    for (int i = 0; i < n; i++)
        total += iov[i].iov_len;
    done = write_all(iov, n, &err);

    if (st && done == total) { /* all in: the ring's walk counted, and the last boundaries are enough */
        const uint64_t base = tf.off;
        tf.calls += st->calls;
        tf.lost += st->lost;
        for (uint64_t i = st->records > HIST ? st->records - HIST : 0; i < st->records; i++) {
            const uint64_t at = st->at[i % HIST];
            remember(joined_at(iov, n, at), base + at);
        }
        tf.off = base + total;
        return;
    }
    account(iov, n, total, done, err); /* record by record */
}

/* ---- open / close ---- */

static size_t read_cmdline(char *buf, size_t len)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    size_t got = 0;

    if (fd < 0)
        return 0;
    while (got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    ct_fd_close_raw(fd);
    return got;
}

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Header, CT_REC_PROCESS, CT_REC_RANK and one CT_REC_API per variant, in one block of the tracer's heap. */
static unsigned char *first_records(size_t *len, const char *host, uint32_t features)
{
    static char cmdline[CT_REC_MAX_SIZE];
    size_t cl = read_cmdline(cmdline, sizeof cmdline), hl = strlen(host);
    size_t size = sizeof(struct ct_file_header) + ct_size_process(hl, cl) + sizeof(struct ct_rec_rank), off;
    unsigned char *buf;
    const struct ct_rec_client *c = atomic_load(&ct_rec_client); /* there is one: the recorder started */

    for (unsigned i = 0; i < c->nvariants; i++)
        size += ct_size_api(strlen(c->variants[i].name), strlen(c->variants[i].symbol));
    if (!(buf = ct_malloc(size)))
        return NULL;
    ct_file_header_init((struct ct_file_header *)buf, (uint32_t)getpid(), (uint32_t)getppid(), features,
                        clock_ns(CLOCK_REALTIME), clock_ns(CLOCK_MONOTONIC));
    off = sizeof(struct ct_file_header);
    ct_put_process(buf + off, host, hl, cmdline, cl);
    off += ct_size_process(hl, cl);
    ct_rank_record((struct ct_rec_rank *)(buf + off));
    off += sizeof(struct ct_rec_rank);
    for (unsigned i = 0; i < c->nvariants; i++) {
        const struct ct_variant *v = &c->variants[i];
        ct_put_api(buf + off, (uint16_t)i, v->name, v->symbol, v->version, v->vflags, v->family);
        off += ct_size_api(strlen(v->name), strlen(v->symbol));
    }
    *len = size;
    return buf;
}

/* CUDATRACE_FILE_LIST: one line per trace file, its absolute name with a backslash written as \\ and a newline
 * as \n (so that a name is one line whatever it holds), appended in one write (so the lines of processes
 * writing at once do not mix): how `cudatrace run --stats` finds every file of a run. */
static void list_file(const char *list)
{
    static char line[2 * PATH_MAX + 1]; /* off the stack of the thread that starts tracing, which holds a lock */
    char path[PATH_MAX];
    int fd, n = 0;

    if (!*list || !realpath(tf.path, path))
        return;
    for (const char *p = path; *p; p++) {
        if (*p == '\\' || *p == '\n')
            line[n++] = '\\';
        line[n++] = *p == '\n' ? 'n' : *p;
    }
    line[n++] = '\n';
    if ((fd = open(list, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0) {
        ct_warn("cannot open %s (CUDATRACE_FILE_LIST): %s", list, strerror(errno));
        return;
    }
    if (write(fd, line, (size_t)n) != n)
        ct_warn("cannot write %s (CUDATRACE_FILE_LIST)", list);
    ct_fd_close_raw(fd);
}

int ct_tf_open(const struct ct_settings *s, uint32_t features)
{
    char host[256] = "", name[PATH_MAX];
    unsigned char *first;
    size_t len;
    int err;

    memset(&tf, 0, sizeof tf);
    set_fd(-1);
    gethostname(host, sizeof host - 1);
    if (ct_output_expand(s->output, name, sizeof name, (long)getpid(), host) < 0) {
        ct_warn("CUDATRACE_OUTPUT=\"%s\" is not a valid file name template (%%p, %%h, %%q{VAR}, %%%%); using %s",
                s->output, CT_DEFAULT_OUTPUT);
        ct_output_expand(CT_DEFAULT_OUTPUT, name, sizeof name, (long)getpid(), host);
    }
    const char *what = ct_output_not_a_file(name);
    if (what) { /* /dev/null keeps a program quiet: with CUDATRACE_QUIET, not a word */
        if (!s->quiet || strcmp(name, "/dev/null") != 0)
            ct_warn("%s is %s, not a file; tracing disabled (CUDATRACE_OUTPUT names the trace file)", name, what);
        return -1;
    }
    tf.fd = ct_output_create(name, s->file_mode, tf.path, sizeof tf.path);
    if (tf.fd < 0) {
        ct_warn("cannot create %s: %s; tracing disabled", name, strerror(errno));
        return -1;
    }
    tf.fd = ct_fd_move_high(tf.fd);
    tf.pid = getpid();
    remember_identity(tf.fd);
    if (!(first = first_records(&len, host, features))) {
        ct_warn("cannot write %s: %s; tracing disabled", tf.path, strerror(ENOMEM));
        ct_fd_close_raw(tf.fd);
        unlink(tf.path);
        tf.fd = -1;
        return -1;
    }
    set_fd(tf.fd); /* from here the descriptor hooks keep the program off it */
    size_t done = write_all(&(struct iovec){first, len}, 1, &err);
    const size_t hdr = sizeof(struct ct_file_header);
    if (done >= hdr) {
        /* A full disk keeps what fits: the records wholly written, then a cut-back that leaves room for the
         * LOST and END records, and every later call counted. */
        tf.off = hdr;
        account(&(struct iovec){first + hdr, len - hdr}, 1, len - hdr, done - hdr, err);
    } else {
        /* Not even the header fits: no file to keep, but the calls are still counted, and said at exit. */
        ct_warn("cannot write %s: %s; calls are counted, not recorded", tf.path, strerror(err));
        drop_fd();
        unlink(tf.path);
        tf.failed = tf.counting = 1;
    }
    ct_free(first);
    if (!tf.counting)
        list_file(s->file_list);
    return 0;
}

/* Decimal, for the summary line (async-signal-safe). */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static void summary(void)
{
    static char line[4 * PATH_MAX + 128]; /* once per process, maybe on a small signal stack: not there */
    char *p = line;

    if (tf.counting)
        memcpy(p, "cudatrace: could not write ", 27), p += 27;
    else
        memcpy(p, "cudatrace: wrote ", 17), p += 17;
    p += ct_escape(tf.path, strlen(tf.path), p, 4 * PATH_MAX);
    *p++ = ':', *p++ = ' ';
    p = put_u64(p, tf.calls);
    memcpy(p, " calls, ", 8), p += 8;
    p = put_u64(p, tf.lost);
    memcpy(p, " lost\n", 6), p += 6;
    ct_say(line, (size_t)(p - line));
}

/* The file is complete: the write losses join the total, the summary line. */
static void completed(int quiet)
{
    tf.lost += tf.wlost;
    tf.wlost = 0;
    if (!quiet)
        summary();
    tf.counting = 0;
}

void ct_tf_close(int quiet)
{
    struct ct_rec_end e;
    int err = 0;

    if (!have_file() && !tf.counting)
        return;
    if (!tf.failed) {
        make_end_record(&e);
        size_t done = write_all(&(struct iovec){&e, sizeof e}, 1, &err);
        if (done != sizeof e)
            write_failed(err, tf.off + done);
    }
    if (tf.failed && !tf.counting) { /* the LOST record with the final count, then END right after it */
        make_end_record(&e);
        put_lost_record();
        pwrite_quiet(&e, sizeof e, tf.lost_off + sizeof(struct ct_rec_lost));
    }
    completed(quiet); /* without a file (counting only) the count reaches stderr only */
    drop_fd();
}

uint64_t ct_tf_progress(void) { return atomic_load_explicit(&progress, memory_order_acquire); }

void ct_tf_give_up(uint64_t unwritten, int quiet)
{
    alignas(8) unsigned char tail[sizeof(struct ct_rec_lost) + sizeof(struct ct_rec_end)];
    size_t len = 0;

    if (!have_file() && !tf.counting)
        return;
    tf.wlost += unwritten;
    if (!tf.counting) {
        /* The holder may have written part of a record past tf.off (or be writing still, stuck): cut there. */
        const uint64_t at = tf.failed ? tf.lost_off : tf.off;
        if (tf.wlost) {
            make_lost_record((struct ct_rec_lost *)tail, tf.failed ? CT_LOST_WRITE_ERROR : CT_LOST_SHUTDOWN);
            len = sizeof(struct ct_rec_lost);
        }
        make_end_record((struct ct_rec_end *)(tail + len));
        len += sizeof(struct ct_rec_end);
        /* The lock, unless a holder stuck in the kernel keeps it: then the number is still the trace's (a
         * descriptor hook waits for the lock before it moves the trace). */
        struct fd_guard g;
        fd_enter(&g, 200);
        if (tf.fd >= 0 && pwrite(tf.fd, tail, len, (off_t)at) >= 0)
            (void)!ftruncate(tf.fd, (off_t)(at + len)); /* if it fails, a reader still stops at END */
        fd_leave(&g, 0);
    }
    /* The descriptor stays open: a stuck holder is still in a write on it, and the process dies next. */
    completed(quiet);
}

void ct_tf_abandon(void)
{
    atomic_store(&fd_lock, 0); /* a parent's thread may have held it: not in this process */
    if (tf.fd >= 0)
        ct_fd_close_raw(tf.fd);
    set_fd(-1);
    tf.counting = 0;
}
