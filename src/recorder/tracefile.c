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
#include "recorder/clock.h"
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

/* ---- writing, with SIGXFSZ kept from the program ---- */

struct xfsz_guard { sigset_t old; int active; };

static void guard_on(struct xfsz_guard *g)
{
    sigset_t s;
    g->active = !thread_blocks_signals;
    if (g->active) {
        sigemptyset(&s);
        sigaddset(&s, SIGXFSZ);
        pthread_sigmask(SIG_BLOCK, &s, &g->old);
    }
}

/* After EFBIG the kernel queued SIGXFSZ for this thread: take it before unblocking. */
static void guard_off(struct xfsz_guard *g, int err)
{
    if (err == EFBIG) {
        sigset_t s;
        struct timespec zero = {0, 0};
        sigemptyset(&s);
        sigaddset(&s, SIGXFSZ);
        while (sigtimedwait(&s, NULL, &zero) == SIGXFSZ) {
        }
    }
    if (g->active)
        pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* writev all of iov; returns the bytes written and sets *err on failure (0 when all went out). */
static size_t write_all(const struct iovec *in, int n, int *err)
{
    struct iovec iov[4];
    struct xfsz_guard g;
    size_t done = 0;
    int i = 0;

    if (n > 4)
        n = 4; /* callers pass at most 3 spans */
    memcpy(iov, in, (size_t)n * sizeof *iov);
    *err = 0;
    guard_on(&g);
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
    guard_off(&g, *err);
    return done;
}

static void pwrite_quiet(const void *buf, size_t len, uint64_t off)
{
    struct xfsz_guard g;
    ssize_t w;
    guard_on(&g);
    do
        w = pwrite(tf.fd, buf, len, (off_t)off);
    while (w < 0 && errno == EINTR);
    guard_off(&g, w < 0 ? errno : 0);
}

/* ---- the descriptor: kept out of the program's way ---- */

/* Programs that close "all" descriptors or dup2 over low ones rarely reach this high. */
static int move_high(int fd)
{
    int hi = fcntl(fd, F_DUPFD_CLOEXEC, 512);
    if (hi < 0)
        return fd;
    close(fd);
    return hi;
}

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

int ct_tf_mine(void)
{
    return tf.fd >= 0 && getpid() == tf.pid;
}

void ct_tf_verify(void)
{
    int fd;

    if (tf.fd < 0 || tf.failed || is_our_file(tf.fd))
        return;
    /* The program closed our descriptor (or put a file of its own there): never write through that number
     * again; reopen the file by name if it is still ours, else the writes fail and are counted as lost. */
    fd = open(tf.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0 && (!is_our_file(fd) || lseek(fd, (off_t)tf.off, SEEK_SET) < 0)) {
        close(fd);
        fd = -1;
    }
    tf.fd = fd >= 0 ? move_high(fd) : -1;
    ct_warn("the program closed the descriptor of %s; %s", tf.path,
            tf.fd >= 0 ? "reopened it" : "the rest of the trace is counted as lost");
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
    if (ftruncate(tf.fd, (off_t)cut) == 0)
        tf.off = cut;
    lseek(tf.fd, (off_t)tf.off, SEEK_SET);
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

    if ((tf.fd < 0 && !tf.counting) || n <= 0)
        return;
    if (tf.failed) {
        for (int i = 0; i < n; i++)
            FOR_RECORDS(h, iov[i].iov_base, iov[i].iov_len) not_written(h);
        if (tf.fd >= 0)
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
    close(fd);
    return got;
}

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Header, CT_REC_PROCESS, CT_REC_RANK and one CT_REC_API per variant, in one malloc'd block. */
static unsigned char *first_records(size_t *len, const char *host, uint32_t features)
{
    static char cmdline[CT_REC_MAX_SIZE];
    size_t cl = read_cmdline(cmdline, sizeof cmdline), hl = strlen(host);
    size_t size = sizeof(struct ct_file_header) + ct_size_process(hl, cl) + sizeof(struct ct_rec_rank), off;
    unsigned char *buf;
    const struct ct_rec_client *c = atomic_load(&ct_rec_client); /* there is one: the recorder started */

    for (unsigned i = 0; i < c->nvariants; i++)
        size += ct_size_api(strlen(c->variants[i].name), strlen(c->variants[i].symbol));
    if (!(buf = malloc(size)))
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
    close(fd);
}

int ct_tf_open(const struct ct_settings *s, uint32_t features)
{
    char host[256] = "", name[PATH_MAX];
    unsigned char *first;
    size_t len;
    int err;

    memset(&tf, 0, sizeof tf);
    tf.fd = -1;
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
    tf.fd = move_high(tf.fd);
    tf.pid = getpid();
    remember_identity(tf.fd);
    if (!(first = first_records(&len, host, features))) {
        ct_warn("cannot write %s: %s; tracing disabled", tf.path, strerror(ENOMEM));
        close(tf.fd);
        unlink(tf.path);
        tf.fd = -1;
        return -1;
    }
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
        close(tf.fd);
        unlink(tf.path);
        tf.fd = -1;
        tf.failed = tf.counting = 1;
    }
    free(first);
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

    if (tf.fd < 0 && !tf.counting)
        return;
    if (tf.fd >= 0 && !tf.failed) {
        make_end_record(&e);
        size_t done = write_all(&(struct iovec){&e, sizeof e}, 1, &err);
        if (done != sizeof e)
            write_failed(err, tf.off + done);
    }
    if (tf.fd >= 0 && tf.failed) { /* the LOST record with the final count, then END right after it */
        make_end_record(&e);
        put_lost_record();
        pwrite_quiet(&e, sizeof e, tf.lost_off + sizeof(struct ct_rec_lost));
    }
    completed(quiet); /* without a file (counting only) the count reaches stderr only */
    if (tf.fd >= 0)
        close(tf.fd);
    tf.fd = -1;
}

uint64_t ct_tf_progress(void) { return atomic_load_explicit(&progress, memory_order_acquire); }

void ct_tf_give_up(uint64_t unwritten, int quiet)
{
    alignas(8) unsigned char tail[sizeof(struct ct_rec_lost) + sizeof(struct ct_rec_end)];
    size_t len = 0;

    if (tf.fd < 0 && !tf.counting)
        return;
    tf.wlost += unwritten;
    if (tf.fd >= 0) {
        /* The holder may have written part of a record past tf.off (or be writing still, stuck): cut there. */
        const uint64_t at = tf.failed ? tf.lost_off : tf.off;
        if (tf.wlost) {
            make_lost_record((struct ct_rec_lost *)tail, tf.failed ? CT_LOST_WRITE_ERROR : CT_LOST_SHUTDOWN);
            len = sizeof(struct ct_rec_lost);
        }
        make_end_record((struct ct_rec_end *)(tail + len));
        len += sizeof(struct ct_rec_end);
        pwrite_quiet(tail, len, at);
        (void)!ftruncate(tf.fd, (off_t)(at + len)); /* if it fails, a reader still stops at END */
    }
    /* The descriptor stays open: a stuck holder is still in a write on it, and the process dies next. */
    completed(quiet);
}

void ct_tf_abandon(void)
{
    if (tf.fd >= 0)
        close(tf.fd);
    tf.fd = -1;
    tf.counting = 0;
}
