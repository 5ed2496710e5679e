/* What the program says about itself (recorder.h): NVTX events and names, thread names.  NVTX events go into
 * the thread's ring like calls (their time in ticks, which the drain makes ns: ring.c); names, rare and not
 * to be lost, through the metadata queue. */
#include "config.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/hot.h"
#include "recorder/intern.h"
#include "recorder/meta_queue.h"
#include "recorder/recorder.h"
#include "recorder/recorder_hot.h"
#include "recorder/rings.h"

CT_HOT_CODE
void ct_rec_nvtx(unsigned kind, uint16_t domain, uint32_t name_id, uint64_t range_id, uint32_t category,
                 uint32_t color, unsigned flags)
{
    const uint64_t t = ct_now();
    struct ct_rec_nvtx *e = ct_rec_reserve(sizeof *e);

    if (!e)
        return;
    ct_put_hdr(&e->h, CT_REC_NVTX, sizeof *e, ct_rec_ring->tid);
    e->kind = (uint8_t)kind;
    e->flags = (uint8_t)flags;
    e->domain = domain;
    e->name_id = name_id;
    e->t_ns = t;
    e->range_id = range_id;
    e->category = category;
    e->color = color;
    ct_rec_commit(e);
}

void ct_rec_nvtx_name(unsigned what, uint16_t domain, uint32_t category, uint32_t name_id)
{
    struct ct_rec_nvtx_name n;

    if (!name_id || atomic_load(&ct_state) != CT_ST_ON)
        return;
    memset(&n, 0, sizeof n);
    ct_put_hdr(&n.h, CT_REC_NVTX_NAME, sizeof n, 0);
    n.what = (uint8_t)what;
    n.domain = domain;
    n.category = category;
    n.name_id = name_id;
    ct_meta_push(&n, sizeof n, 1); /* a forked child goes on using the parent's domains */
}

void ct_rec_thread_name(uint32_t tid, const char *name)
{
    struct ct_rec_thread t;

    if (!name || atomic_load(&ct_state) != CT_ST_ON)
        return;
    /* The drain must not write the name the thread had (or will have) at its first record after this one. */
    if (tid == (uint32_t)gettid()) {
        ct_thread_named = 1;
        if (ct_rec_ring)
            atomic_store(&ct_rec_ring->name_pending, 0);
    }
    if (ct_intern_thread(&t, tid, name) == 0)
        ct_meta_push(&t, sizeof t, 0);
}
