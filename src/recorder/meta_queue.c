#include "config.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "recorder/meta_queue.h"
#include "recorder/tracefile.h"
#include "recorder/tsan.h"
#include "recorder/alloc.h"

struct node {
    struct node *next;
    size_t size;
    int sticky;
    alignas(8) unsigned char rec[];
};

static struct node *_Atomic pending; /* newest first */
/* Owned by the drain holder: */
static struct node *kept;    /* sticky records already written, oldest first */
static struct node **kept_tail = &kept;
static struct node *garbage; /* written in a signal handler, to free later */

int ct_meta_push(const void *rec, size_t size, int sticky)
{
    struct node *n = ct_malloc(sizeof *n + size);

    if (!n)
        return -1;
    n->size = size;
    n->sticky = sticky;
    memcpy(n->rec, rec, size);
    ct_tsan_release(n); /* ct_meta_write acquires it */
    n->next = atomic_load_explicit(&pending, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&pending, &n->next, n, memory_order_release,
                                                  memory_order_relaxed)) {
    }
    return 0;
}

static struct node *reverse(struct node *n)
{
    struct node *out = NULL;
    while (n) {
        struct node *next = n->next;
        n->next = out;
        out = n;
        n = next;
    }
    return out;
}

void ct_meta_write(int in_signal)
{
    struct node *n = reverse(atomic_exchange_explicit(&pending, NULL, memory_order_acquire));

    if (!in_signal) {
        while (garbage) {
            struct node *g = garbage;
            garbage = g->next;
            ct_free(g);
        }
    }
    while (n) {
        struct node *next = n->next;
        ct_tsan_acquire(n);
        ct_tf_append(&(struct iovec){n->rec, n->size}, 1);
        n->next = NULL;
        if (n->sticky) {
            *kept_tail = n;
            kept_tail = &n->next;
        } else if (in_signal) {
            n->next = garbage;
            garbage = n;
        } else {
            ct_free(n);
        }
        n = next;
    }
}

void ct_meta_after_fork_child(void)
{
    struct node *n = reverse(atomic_exchange(&pending, NULL)), *again = NULL, **tail = &again;

    /* Sticky ones already written first, then the pending sticky ones, in their order. */
    *tail = kept;
    if (kept)
        tail = kept_tail;
    while (n) {
        struct node *next = n->next;
        if (n->sticky) {
            n->next = NULL;
            *tail = n;
            tail = &n->next;
        } else {
            ct_free(n);
        }
        n = next;
    }
    kept = NULL;
    kept_tail = &kept;
    atomic_store(&pending, reverse(again));
}
