#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "format/record.h"
#include "recorder/gpu.h"
#include "recorder/clock.h"
#include "recorder/hot.h"
#include "recorder/meta_queue.h"
#include "recorder/tracefile.h"
#include "recorder/tsan.h"
#include "recorder/variants.h"
#include "recorder/alloc.h"

unsigned ct_gpu_sample_n = 1;
struct ct_gpu_counts ct_gpu_counts;
/* What times calls, since when and why; what was asked for (CT_REC_GPU_INFO). */
static _Atomic uint32_t source, why, request;
static _Atomic uint64_t source_ns;

static _Atomic int finished; /* ct_gpu_collect_last ran: the driver is not touched again */
static _Atomic int was_on;   /* ct_gpu_was_on */

int ct_gpu_was_on(void) { return atomic_load(&was_on); }

/* Read what completed through the client's collector, unless GPU time was never on or the last collection
 * ran (`last`: this is it).  One collection at a time, and none under the drain but the last: a collection may
 * wait on the driver (on a lock the thread a signal interrupted holds), and that signal's flush must still
 * get the drain. */
static pthread_mutex_t collect_mu = PTHREAD_MUTEX_INITIALIZER;

static void collect(int final, int last)
{
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    pthread_mutex_lock(&collect_mu);
    if (c && c->gpu_collect && atomic_load(&was_on) && !atomic_load(&finished)) {
        c->gpu_collect(final);
        if (last)
            atomic_store(&finished, 1);
    }
    pthread_mutex_unlock(&collect_mu);
}

void ct_gpu_collect_soon(void) { collect(0, 0); }

/* Spans made and not written yet: an array that grows, swapped out whole by the drain.  The array written
 * comes back to be a queue again (give_back): an array grown anew at each collection, its pages faulting
 * in, cost the collector more than all the rest of its work (doc/performance.md, "CUPTI's buffers"). */
static pthread_mutex_t queue_mu = PTHREAD_MUTEX_INITIALIZER;
static struct ct_rec_gpu *queue, *queue_next; /* queue_next: the next queue, once this one is taken */
static size_t queued, room, room_next;

/* An array of `n` spans' room, written: the queue's again, or the next queue's, or freed. */
static void give_back(struct ct_rec_gpu *v, size_t n)
{
    if (!v)
        return;
    pthread_mutex_lock(&queue_mu);
    if (!queue && !queued) {
        queue = v, room = n;
        v = NULL;
    } else if (!queue_next) {
        queue_next = v, room_next = n;
        v = NULL;
    }
    pthread_mutex_unlock(&queue_mu);
    ct_free(v);
}

static void put_info(struct ct_rec_gpu_info *gi, int final)
{
    memset(gi, 0, sizeof *gi);
    ct_put_hdr(&gi->h, CT_REC_GPU_INFO, sizeof *gi, 0);
    gi->mode = (uint32_t)ct_gpu_mode;
    gi->sample_n = ct_gpu_sample_n;
    gi->sample_k = CT_GPU_SAMPLE_K;
    gi->final = (uint32_t)final;
    gi->timed = atomic_load(&ct_gpu_counts.timed);
    gi->not_completed = atomic_load(&ct_gpu_counts.not_completed);
    gi->untimed_pool = atomic_load(&ct_gpu_counts.untimed_pool);
    gi->untimed_refused = atomic_load(&ct_gpu_counts.untimed_refused);
    gi->untimed_capture = atomic_load(&ct_gpu_counts.untimed_capture);
    gi->source = atomic_load(&source);
    gi->why = atomic_load(&why);
    gi->request = atomic_load(&request);
    gi->source_ns = atomic_load(&source_ns);
    gi->no_call = atomic_load(&ct_gpu_counts.no_call);
    gi->dropped = atomic_load(&ct_gpu_counts.dropped);
}

void ct_gpu_start(int req, unsigned sample_n, const char *cupti)
{
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    struct ct_rec_gpu_info gi;

    ct_gpu_sample_n = sample_n ? sample_n : 1;
    atomic_store(&request, (uint32_t)req);
    /* The recorder's own tests lend no GPU time: they have no driver to time with. */
    ct_gpu_mode = c && c->gpu_start && c->gpu_collect && req != CT_GPU_REQ_OFF
                      ? c->gpu_start(req, ct_gpu_sample_n, cupti)
                      : CT_GPU_OFF;
    atomic_store(&was_on, ct_gpu_mode != CT_GPU_OFF);
    put_info(&gi, 0);
    ct_meta_push(&gi, sizeof gi, 0);
}

void ct_gpu_set_source(unsigned src, unsigned reason, int now)
{
    struct ct_rec_gpu_info gi;

    atomic_store(&source, src);
    atomic_store(&why, reason);
    atomic_store(&source_ns, now ? ct_now_ns() : 0);
    if (!now)
        return; /* at start: ct_gpu_start writes the record */
    put_info(&gi, 0);
    ct_meta_push(&gi, sizeof gi, 0);
}

void ct_gpu_set_mode(int mode) { ct_gpu_mode = mode; }

int ct_gpu_queue_many(const struct ct_rec_gpu *g, size_t n)
{
    int rc = 0;

    pthread_mutex_lock(&queue_mu);
    if (queued + n > room) {
        size_t want = room ? room * 2 : 256;
        while (want < queued + n)
            want *= 2;
        struct ct_rec_gpu *q = ct_realloc(queue, want * sizeof *q);
        if (q) {
            queue = q;
            room = want;
        }
    }
    if (queued + n <= room) {
        memcpy(queue + queued, g, n * sizeof *g);
        queued += n;
    } else
        rc = -1;
    pthread_mutex_unlock(&queue_mu);
    if (rc == 0)
        atomic_fetch_add(&ct_gpu_counts.timed, n);
    else
        atomic_fetch_add(&ct_gpu_counts.not_completed, n);
    return rc;
}

int ct_gpu_queue(const struct ct_rec_gpu *g) { return ct_gpu_queue_many(g, 1); }

/* The batch ct_gpu_hand left for a flush that cannot collect: ready is set once it is whole.  A batch such a
 * flush wrote is freed by the next take or hand outside signal handlers (free is not async-signal-safe). */
static struct ct_gpu_batch handed, written;
static _Atomic int handed_ready, written_ready;

static void free_written(void)
{
    if (atomic_exchange(&written_ready, 0))
        give_back(written.spans, written.room);
}

static void take_queue(struct ct_gpu_batch *b)
{
    pthread_mutex_lock(&queue_mu);
    b->spans = queue;
    b->n = queued;
    b->room = room;
    queue = queue_next, room = room_next;
    queue_next = NULL, room_next = 0;
    queued = 0;
    pthread_mutex_unlock(&queue_mu);
}

void ct_gpu_take(struct ct_gpu_batch *b, int final, int in_signal)
{
    *b = (struct ct_gpu_batch){0};
    if (in_signal) {
        if (atomic_load_explicit(&handed_ready, memory_order_acquire)) {
            ct_tsan_acquire(&handed);
            *b = handed;
            atomic_store(&handed_ready, 0);
        }
        return;
    }
    free_written();
    if (final)
        collect(1, 1);
    take_queue(b);
    if (atomic_exchange(&handed_ready, 0)) { /* handed over, but the flush gave up waiting: written now */
        struct ct_rec_gpu *v = ct_realloc(handed.spans, (handed.n + b->n) * sizeof *v);
        if (!v && handed.n + b->n) {
            atomic_fetch_add(&ct_gpu_counts.not_completed, handed.n);
            atomic_fetch_sub(&ct_gpu_counts.timed, handed.n);
            ct_free(handed.spans);
            return;
        }
        if (b->n)
            memcpy(v + handed.n, b->spans, b->n * sizeof *v);
        ct_free(b->spans);
        b->spans = v;
        b->n += handed.n;
        b->room = b->n;
    }
}

void ct_gpu_hand(int how)
{
    if (atomic_load(&handed_ready))
        return; /* the last one is not taken yet: these wait with the queue */
    free_written();
    collect(how != CT_GPU_HAND_SOON, how == CT_GPU_HAND_LAST);
    take_queue(&handed);
    handed.counts = how != CT_GPU_HAND_SOON;
    ct_tsan_release(&handed);
    atomic_store_explicit(&handed_ready, 1, memory_order_release);
}

void ct_gpu_write(struct ct_gpu_batch *b, int final, int in_signal)
{
    if (b->n) /* one span of memory: the file takes at most a few iovecs at a time */
        ct_tf_append(&(struct iovec){b->spans, b->n * sizeof *b->spans}, 1);
    if (!in_signal)
        give_back(b->spans, b->room);
    else if (b->spans) {
        written = *b;
        atomic_store(&written_ready, 1);
    }
    if ((final || b->counts) && atomic_load(&was_on)) {
        struct ct_rec_gpu_info gi;
        put_info(&gi, 1);
        if (!atomic_load(&finished) && !b->counts) { /* no last collection: what it would have read is lost */
            const struct ct_rec_client *c = atomic_load(&ct_rec_client);
            gi.not_completed += c && c->gpu_pending ? c->gpu_pending() : 0;
        }
        ct_tf_append(&(struct iovec){&gi, sizeof gi}, 1);
    }
    *b = (struct ct_gpu_batch){0};
}

void ct_gpu_collect_last(void) { collect(1, 1); }

void ct_gpu_after_fork_child(void)
{
    pthread_mutex_init(&queue_mu, NULL);
    pthread_mutex_init(&collect_mu, NULL);
    ct_free(queue);
    ct_free(queue_next);
    queue = queue_next = NULL;
    queued = room = room_next = 0;
    atomic_store(&ct_gpu_counts.timed, 0);
    atomic_store(&ct_gpu_counts.not_completed, 0);
    atomic_store(&ct_gpu_counts.untimed_pool, 0);
    atomic_store(&ct_gpu_counts.untimed_refused, 0);
    atomic_store(&ct_gpu_counts.untimed_capture, 0);
    atomic_store(&ct_gpu_counts.no_call, 0);
    atomic_store(&ct_gpu_counts.dropped, 0);
}
