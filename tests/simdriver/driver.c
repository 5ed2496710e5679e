/* Process-wide state of the simulated driver: initialisation, the lock, handle registry, version. */
#include "config.h"

#include "sim.h"

#include <pthread.h>
#include <time.h>

static pthread_mutex_t sim_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static bool initialized;
static unsigned long long last_id;
static struct sim_obj *live_objects;

void sim_lock(void)
{
    pthread_mutex_lock(&sim_mutex);
}

void sim_unlock(void)
{
    pthread_mutex_unlock(&sim_mutex);
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

void sim_obj_register(struct sim_obj *o, enum sim_kind kind)
{
    sim_lock();
    o->kind = kind;
    o->next = live_objects;
    live_objects = o;
    sim_unlock();
}

bool sim_obj_unregister(struct sim_obj *o, enum sim_kind kind)
{
    bool found = false;
    sim_lock();
    for (struct sim_obj **p = &live_objects; *p; p = &(*p)->next) {
        if (*p == o && o->kind == kind) {
            *p = o->next;
            found = true;
            break;
        }
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
    for (const struct sim_obj *o = live_objects; o; o = o->next) {
        if ((const void *)o == handle) {
            found = o->kind == kind;
            break;
        }
    }
    sim_unlock();
    return found;
}

struct sim_obj *sim_obj_take_owned(enum sim_kind kind, const void *owner)
{
    struct sim_obj *found = NULL;
    sim_lock();
    for (struct sim_obj **p = &live_objects; *p; p = &(*p)->next) {
        if ((*p)->kind == kind && (*p)->owner == owner) {
            found = *p;
            *p = found->next;
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
