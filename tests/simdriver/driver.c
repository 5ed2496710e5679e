/* Process-wide state of the simulated driver: initialisation, the lock, handle registry, version. */
#include "config.h"

#include "sim.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t sim_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static bool initialized;
static unsigned long long last_id;
static struct sim_obj *live_objects;

/* Signals are held while a thread holds the lock: a handler that calls the driver must not find its own
 * thread inside the lock's own code (the mutex is recursive, but not mid-way through taking it), nor the
 * driver's state half changed.  The lock nests: the first taking blocks, the last release restores. */
static __thread unsigned held;
static __thread sigset_t unheld_mask;

void sim_lock(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_mutex_lock(&sim_mutex);
    if (held++ == 0)
        unheld_mask = old;
}

void sim_unlock(void)
{
    const int last = --held == 0;
    const sigset_t restore = unheld_mask;
    pthread_mutex_unlock(&sim_mutex);
    if (last)
        pthread_sigmask(SIG_SETMASK, &restore, NULL);
}

bool sim_initialized(void)
{
    sim_lock();
    bool ok = initialized;
    sim_unlock();
    return ok;
}

uint64_t sim_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

unsigned long long sim_next_id(void)
{
    sim_lock();
    unsigned long long id = ++last_id;
    sim_unlock();
    return id;
}

/* Live handles: a list (for a context's streams and events) and a set of their addresses, so that checking a
 * handle stays cheap when a program (or the tracer's timing events) holds tens of thousands. */
static struct sim_obj **live_set;
static size_t set_size, set_used; /* slots (a power of two), slots not empty (live or removed) */
#define SET_REMOVED ((struct sim_obj *)1)

static size_t set_slot(const void *h)
{
    uint64_t x = (uint64_t)(uintptr_t)h * 0x9e3779b97f4a7c15ull;
    return (size_t)(x ^ x >> 32) & (set_size - 1);
}

/* The slot of h, or the empty slot where it would go. */
static struct sim_obj **set_find(const void *h)
{
    struct sim_obj **removed = NULL;
    for (size_t i = set_slot(h);; i = (i + 1) & (set_size - 1)) {
        if (live_set[i] == (const struct sim_obj *)h)
            return &live_set[i];
        if (live_set[i] == SET_REMOVED && !removed)
            removed = &live_set[i];
        if (!live_set[i])
            return removed ? removed : &live_set[i];
    }
}

static void set_add(struct sim_obj *o)
{
    if ((set_used + 1) * 2 > set_size) {
        struct sim_obj **old = live_set;
        size_t old_size = set_size;
        set_size = set_size ? set_size * 2 : 1024;
        live_set = calloc(set_size, sizeof *live_set);
        if (!live_set)
            abort(); /* a test driver: out of memory is the end */
        set_used = 0;
        for (size_t i = 0; i < old_size; i++)
            if (old[i] && old[i] != SET_REMOVED) {
                *set_find(old[i]) = old[i];
                set_used++;
            }
        free(old);
    }
    struct sim_obj **slot = set_find(o);
    set_used += *slot == NULL;
    *slot = o;
}

static void unlink_obj(struct sim_obj *o)
{
    *set_find(o) = SET_REMOVED;
    if (o->prev)
        o->prev->next = o->next;
    else
        live_objects = o->next;
    if (o->next)
        o->next->prev = o->prev;
}

static bool is_live(const void *h)
{
    return set_size && *set_find(h) == (const struct sim_obj *)h;
}

void sim_obj_register(struct sim_obj *o, enum sim_kind kind)
{
    sim_lock();
    o->kind = kind;
    o->prev = NULL;
    o->next = live_objects;
    if (live_objects)
        live_objects->prev = o;
    live_objects = o;
    set_add(o);
    sim_unlock();
}

bool sim_obj_unregister(struct sim_obj *o, enum sim_kind kind)
{
    bool found = false;
    sim_lock();
    if (o && is_live(o) && o->kind == kind) {
        unlink_obj(o);
        found = true;
    }
    sim_unlock();
    return found;
}

bool sim_obj_live(const void *handle, enum sim_kind kind)
{
    bool found = false;
    if (!handle)
        return false;
    sim_lock();
    found = is_live(handle) && ((const struct sim_obj *)handle)->kind == kind;
    sim_unlock();
    return found;
}

struct sim_obj *sim_obj_take_owned(enum sim_kind kind, const void *owner)
{
    struct sim_obj *found = NULL;
    sim_lock();
    for (struct sim_obj *o = live_objects; o; o = o->next) {
        if (o->kind == kind && o->owner == owner) {
            found = o;
            unlink_obj(o);
            break;
        }
    }
    sim_unlock();
    return found;
}

CUresult cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    initialized = true;
    sim_unlock();
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = SIM_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

/* The runtime's private tables are not simulated: a program that needs them (cudart) cannot run here. */
CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    *ppExportTable = NULL;
    return CUDA_ERROR_NOT_FOUND;
}
