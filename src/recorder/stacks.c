#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBUNWIND
#define UNW_LOCAL_ONLY /* the local-only unwinder: no remote-process machinery on the hot path */
#include <libunwind.h>
#endif

#include "format/record.h"
#include "recorder/hot.h"
#include "recorder/meta_queue.h"
#include "recorder/modules.h"
#include "recorder/settings.h"
#include "recorder/stacks.h"
#include "recorder/warn.h"

/* Frames unwound beyond the kept depth, for the trimmed ones: the trampoline and this file, libunwind, and the
 * runtime's frames between the program and the driver entry point. */
#define TRIM_ROOM 24u
#define RAW_MAX (CT_MAX_STACK_DEPTH + TRIM_ROOM)
#define TABLE_SLOTS (1u << 17) /* distinct raw stacks: at most 3/4 of it are filled */

CT_HOT_DATA unsigned ct_stack_families;

/* One distinct raw stack.  Readers find it without a lock: `hash` is stored last, with release. */
struct slot {
    _Atomic uint64_t hash; /* 0: empty */
    uint32_t id;
    uint32_t n;
    void **raw;
};

static struct slot *table;
static unsigned depth, raw_depth;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

#ifdef HAVE_LIBUNWIND
static size_t used;
static uint32_t next_id = 1;

static uint64_t hash_of(void *const *raw, int n)
{
    uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < n; i++) {
        h = (h ^ (uint64_t)(uintptr_t)raw[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h ? h : 1;
}

/* The slot holding this stack (*found = 1: its id is readable), or the empty slot where it would go (*found = 0;
 * without the lock, another thread may fill that slot, with this stack or another, at any time). */
static struct slot *probe(uint64_t h, void *const *raw, int n, int *found)
{
    for (size_t i = h & (TABLE_SLOTS - 1);; i = (i + 1) & (TABLE_SLOTS - 1)) {
        struct slot *s = &table[i];
        uint64_t sh = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (sh == 0 || (sh == h && s->n == (uint32_t)n && memcmp(s->raw, raw, (size_t)n * sizeof *raw) == 0)) {
            *found = sh != 0;
            return s;
        }
    }
}

/* Queue the CT_REC_STACK of a new stack: cut the leading internal frames, keep `depth` after them. */
static int write_stack(uint32_t id, void *const *raw, int n)
{
    uint64_t frames[RAW_MAX];
    unsigned char rec[sizeof(struct ct_rec_stack) + sizeof frames];
    int skip = 0, kept = 0, in;

    while (skip < n) {
        uint64_t a = (uint64_t)(uintptr_t)raw[skip];
        if ((in = ct_modules_internal(a)) < 0) { /* loaded since the last scan? */
            ct_modules_scan(0);
            in = ct_modules_internal(a);
        }
        if (in != 1)
            break;
        skip++;
    }
    for (int i = skip; i < n && kept < (int)depth; i++)
        frames[kept++] = (uint64_t)(uintptr_t)raw[i];
    /* Frames past the trimmed ones may come from objects loaded since: map them before the report needs it. */
    for (int i = 0; i < kept; i++)
        if (ct_modules_internal(frames[i]) < 0) {
            ct_modules_scan(0);
            break;
        }
    ct_put_stack(rec, 0, id, frames, (size_t)kept, (unsigned)skip);
    return ct_meta_push(rec, ct_size_stack((size_t)kept), 1);
}

__attribute__((noinline)) static uint32_t insert(uint64_t h, void *const *raw, int n)
{
    static int warned;
    uint32_t id = 0;
    struct slot *s;
    int found;

    pthread_mutex_lock(&mu);
    s = probe(h, raw, n, &found);
    if (found) { /* another thread got there first */
        id = s->id;
        goto out;
    }
    if ((used + 1) * 4 > (size_t)TABLE_SLOTS * 3) {
        if (!warned++)
            ct_warn("more than %u distinct call stacks: further new stacks are not recorded", TABLE_SLOTS / 4 * 3);
        goto out;
    }
    if (!(s->raw = malloc((size_t)n * sizeof *raw)))
        goto out;
    memcpy(s->raw, raw, (size_t)n * sizeof *raw);
    if (write_stack(next_id, raw, n) < 0) {
        free(s->raw);
        goto out;
    }
    s->n = (uint32_t)n;
    id = s->id = next_id++;
    used++;
    atomic_store_explicit(&s->hash, h, memory_order_release);
out:
    pthread_mutex_unlock(&mu);
    return id;
}

uint32_t ct_stack_capture(void)
{
    void *raw[RAW_MAX];
    int n = unw_backtrace(raw, (int)raw_depth);

    if (n <= 0)
        return 0;
    uint64_t h = hash_of(raw, n);
    int found;
    struct slot *s = probe(h, raw, n, &found);
    if (__builtin_expect(found, 1))
        return s->id;
    return insert(h, raw, n);
}
#else
/* Never called: ct_stack_start leaves ct_stack_families 0 in a build without libunwind. */
uint32_t ct_stack_capture(void) { return 0; }
#endif

unsigned ct_stack_start(int mode, unsigned d)
{
    if (mode == CT_STACKS_NONE)
        return 0;
    pthread_mutex_lock(&mu);
    if (!table && !(table = calloc(TABLE_SLOTS, sizeof *table))) {
        pthread_mutex_unlock(&mu);
        ct_warn("cannot allocate the call stack table; stacks are not recorded");
        return 0;
    }
    depth = d;
    raw_depth = d + TRIM_ROOM;
    ct_modules_scan(1);
    pthread_mutex_unlock(&mu);
    ct_stack_families = mode == CT_STACKS_ALL ? ~0u : (1u << CT_FAM_ALLOC | 1u << CT_FAM_FREE);
    return CT_FEAT_STACKS;
}

void ct_stack_lock(void) { pthread_mutex_lock(&mu); }
void ct_stack_unlock(void) { pthread_mutex_unlock(&mu); }
