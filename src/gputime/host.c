/* What the interposition layer lends GPU time (gputime.h, struct ct_gpu_host), as the backends use it
 * (backend.h): the driver's functions, found once, and the exit and fork handlers, installed at the first
 * timed call. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>

#include "gputime/gputime.h"

static const struct ct_gpu_host *host;
static struct ct_gpu_driver drv;
static int drv_found;
static pthread_once_t drv_once = PTHREAD_ONCE_INIT, install_once = PTHREAD_ONCE_INIT;

void ct_gpu_attach(const struct ct_gpu_host *h) { host = h; }

static void find_once(void) { drv_found = host && host->find_driver(&drv) == 0; }

const struct ct_gpu_driver *ct_gpu_drv(void)
{
    pthread_once(&drv_once, find_once);
    return drv_found ? &drv : NULL;
}

static void install(void)
{
    if (host)
        host->install();
}

static _Atomic int used;

void ct_gpu_first_use(void)
{
    if (atomic_load_explicit(&used, memory_order_relaxed))
        return; /* every timed call asks: a read of a line no one writes */
    pthread_once(&install_once, install);
    atomic_store(&used, 1);
}

int ct_gpu_makes_work(const char *name) { return host && host->makes_work(name); }

int ct_gpu_used(void) { return atomic_load(&used); }

int ct_gpu_capturing(void) { return !host || host->capturing(); }

int ct_gpu_in_tracer(void) { return host && host->in_tracer(); }
