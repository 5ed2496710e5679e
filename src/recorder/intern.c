#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "recorder/forklock.h"
#include "recorder/intern.h"
#include "recorder/meta_queue.h"
#include "recorder/alloc.h"

struct slot {
    uint64_t hash; /* 0 = empty */
    uint32_t id;
    unsigned kind;
    char *s;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct slot *table;
static size_t cap, used;
static uint32_t next_id = 1;

static uint64_t hash_of(unsigned kind, const char *s)
{
    uint64_t h = 1469598103934665603ull ^ kind; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

static struct slot *find(struct slot *t, size_t c, uint64_t h, unsigned kind, const char *s)
{
    size_t i = h & (c - 1);
    while (t[i].hash && !(t[i].hash == h && t[i].kind == kind && strcmp(t[i].s, s) == 0))
        i = (i + 1) & (c - 1);
    return &t[i];
}

static int grow(void)
{
    size_t nc = cap ? cap * 2 : 256;
    struct slot *t = ct_calloc(nc, sizeof *t);

    if (!t)
        return -1;
    for (size_t i = 0; i < cap; i++)
        if (table[i].hash)
            *find(t, nc, table[i].hash, table[i].kind, table[i].s) = table[i];
    ct_free(table);
    table = t;
    cap = nc;
    return 0;
}

/* Queue the CT_REC_STRING of a new id. */
static int queue_string(uint32_t id, unsigned kind, const char *s, uint32_t tid)
{
    size_t len = strlen(s), size = ct_size_string(len);
    unsigned char *rec = ct_malloc(size);
    int rc;

    if (!rec)
        return -1;
    ct_put_string(rec, tid, id, kind, s, len);
    rc = ct_meta_push(rec, size, 1);
    ct_free(rec);
    return rc;
}

uint32_t ct_intern(unsigned kind, const char *s, uint32_t tid)
{
    uint64_t h = hash_of(kind, s);
    struct slot *slot;
    uint32_t id = 0;

    pthread_mutex_lock(&mu);
    if ((used + 1) * 2 > cap && grow() < 0)
        goto out;
    slot = find(table, cap, h, kind, s);
    if (slot->hash) {
        id = slot->id;
        goto out;
    }
    if (!(slot->s = ct_strdup(s)))
        goto out;
    if (queue_string(next_id, kind, s, tid) < 0) {
        ct_free(slot->s);
        slot->s = NULL;
        goto out;
    }
    slot->hash = h;
    slot->kind = kind;
    id = slot->id = next_id++;
    used++;
out:
    pthread_mutex_unlock(&mu);
    return id;
}

int ct_intern_thread(struct ct_rec_thread *t, uint32_t tid, const char *name)
{
    memset(t, 0, sizeof *t);
    ct_put_hdr(&t->h, CT_REC_THREAD, sizeof *t, tid);
    return (t->name_id = ct_intern(CT_STR_THREAD, name, tid)) != 0 ? 0 : -1;
}

int ct_intern_fork_lock(void) { return ct_fork_lock(&mu); }

void ct_intern_fork_unlock(int taken, int child)
{
    if (child)
        pthread_mutex_init(&mu, NULL);
    else
        ct_fork_unlock(&mu, taken);
}
