/* Finding the real driver and telling its functions apart.
 *
 * The driver is libcuda.so.1 as the program loaded it: dlopen(RTLD_NOLOAD) finds it by SONAME whatever path
 * the program used, and only a trampoline that must call the driver loads it (RTLD_LOCAL, as a program's
 * own dlopen would; never promoting it to the global scope).  Its functions are looked up once with glibc's
 * dlsym on its handle, which searches libcuda itself and never reaches our exports of the same names.
 * A returned driver pointer is identified by address: every variant the driver hands out is the address of
 * its exported symbol (doc/driver-facts.md). */
#include "config.h"

#include "preload/capture.h"
#include "preload/interpose.h"
#include "recorder/alloc.h"
#include "recorder/warn.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread int ct_guard __attribute__((tls_model("initial-exec")));

struct addr_id {
    uintptr_t addr;
    unsigned id;
};

static pthread_mutex_t driver_lock = PTHREAD_MUTEX_INITIALIZER; /* publishing the tables, nothing else */
static void *driver;                 /* published with release once the tables below are complete */
static struct link_map *driver_map;
static struct addr_id reals[CT_API_COUNT]; /* real functions by address */
static unsigned nreals;
static struct addr_id tramps[CT_API_COUNT]; /* our trampolines by address */
static pthread_once_t tramps_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static int by_addr(const void *a, const void *b)
{
    const struct addr_id *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* ---- glibc's dlsym ---------------------------------------------------------------------------------- */

typedef void *(*dlsym_fn)(void *, const char *);
static dlsym_fn real_dlsym;
static pthread_once_t real_dlsym_once = PTHREAD_ONCE_INIT;

static void find_real_dlsym(void)
{
    /* dlsym@GLIBC_2.34 lives in libc.so.6 since glibc 2.34; older glibc only has GLIBC_2.2.5 (libdl). */
    void *p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!p)
        p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    if (!p)
        ct_warn("glibc's dlsym not found; dlsym look-ups will fail");
    __atomic_store_n(&real_dlsym, (dlsym_fn)p, __ATOMIC_RELEASE);
}

void *ct_real_dlsym_fn(void)
{
    pthread_once(&real_dlsym_once, find_real_dlsym);
    return (void *)__atomic_load_n(&real_dlsym, __ATOMIC_ACQUIRE);
}

void *ct_real_dlsym(void *handle, const char *symbol)
{
    dlsym_fn f = (dlsym_fn)ct_real_dlsym_fn();
    return f ? f(handle, symbol) : NULL;
}

/* ---- the driver ------------------------------------------------------------------------------------- */

static void *open_driver(int load)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h && load) {
        h = dlopen("libcuda.so.1", RTLD_NOW);
        if (!h) {
            const char *e = dlerror();
            snprintf(load_error, sizeof load_error, "%s", e ? e : "libcuda.so.1: cannot load");
        }
    }
    /* A libcuda.so.1 whose cuInit is our own would make every trampoline call itself. */
    if (h && ct_real_dlsym(h, "cuInit") == ct_trampoline(CT_ID_cuInit)) {
        snprintf(load_error, sizeof load_error, "libcuda.so.1 resolves to cudatrace itself");
        h = NULL;
    }
    return h;
}

/* Look up every variant in the driver `h` and publish the tables.  The look-ups run outside driver_lock,
 * which is never held across a call into the dynamic loader: a thread inside dlopen (holding the loader's
 * lock) may call back into us, and must not wait for a thread that waits for the loader. */
static void publish(void *h)
{
    ct_capture_init(); /* before any real function is handed out (capture.h) */
    void **fns = ct_calloc(CT_API_COUNT, sizeof *fns);
    struct addr_id *found = ct_calloc(CT_API_COUNT, sizeof *found);
    struct link_map *lm = NULL;
    unsigned n = 0;
    if (!fns || !found) {
        snprintf(load_error, sizeof load_error, "out of memory");
        ct_free(fns);
        ct_free(found);
        return;
    }
    for (unsigned id = 0; id < CT_API_COUNT; id++)
        if ((fns[id] = ct_real_dlsym(h, ct_variants[id].symbol)) != NULL)
            found[n++] = (struct addr_id){(uintptr_t)fns[id], id};
    qsort(found, n, sizeof found[0], by_addr);
    if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0)
        lm = NULL;
    pthread_mutex_lock(&driver_lock);
    if (!driver) {
        memcpy(reals, found, n * sizeof found[0]);
        nreals = n;
        driver_map = lm;
        for (unsigned id = 0; id < CT_API_COUNT; id++)
            __atomic_store_n(&ct_real[id], fns[id], __ATOMIC_RELEASE);
        __atomic_store_n(&driver, h, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&driver_lock);
    ct_free(fns);
    ct_free(found);
}

void *ct_driver(int load)
{
    void *h = __atomic_load_n(&driver, __ATOMIC_ACQUIRE);
    if (h || ct_guard) /* found, or called back from inside our own search */
        return h;
    ct_guard++;
    if ((h = open_driver(load)) != NULL)
        publish(h);
    ct_guard--;
    return __atomic_load_n(&driver, __ATOMIC_ACQUIRE);
}

void *ct_resolve(unsigned id)
{
    return ct_driver(1) ? CT_REAL(id) : NULL;
}

CUresult ct_missing(unsigned id)
{
    static int said;
    if (!__atomic_load_n(&driver, __ATOMIC_ACQUIRE) && load_error[0] && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        ct_warn("%s: driver calls fail with CUDA_ERROR_NOT_FOUND", load_error);
    (void)id;
    return CUDA_ERROR_NOT_FOUND;
}

void *ct_driver_fn(unsigned id)
{
    ct_driver(0);
    return CT_REAL(id);
}

int ct_in_driver(const void *addr)
{
    Dl_info info;
    struct link_map *lm = NULL;
    if (!ct_driver(0) || !driver_map)
        return 0;
    return dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm == driver_map;
}

/* ---- variants --------------------------------------------------------------------------------------- */

int ct_symbol_find(const char *symbol)
{
    size_t lo = 0, hi = ct_variant_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        unsigned id = ct_symbol_order[mid];
        int c = strcmp(symbol, ct_variants[id].symbol);
        if (c == 0)
            return (int)id;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

void *ct_trampoline(unsigned id)
{
    return (void *)ct_trampolines[id];
}

static void sort_trampolines(void)
{
    for (unsigned id = 0; id < CT_API_COUNT; id++)
        tramps[id] = (struct addr_id){(uintptr_t)ct_trampolines[id], id};
    qsort(tramps, CT_API_COUNT, sizeof tramps[0], by_addr);
}

/* Index of the first entry of a[0..n) with address >= addr. */
static size_t lower_bound(const struct addr_id *a, size_t n, uintptr_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ct_is_trampoline(const void *p)
{
    pthread_once(&tramps_once, sort_trampolines);
    size_t i = lower_bound(tramps, CT_API_COUNT, (uintptr_t)p);
    return i < CT_API_COUNT && tramps[i].addr == (uintptr_t)p;
}

int ct_identify(const void *p, const char *symbol, unsigned version, int per_thread)
{
    if (!p || !__atomic_load_n(&driver, __ATOMIC_ACQUIRE))
        return -1;
    size_t i = lower_bound(reals, nreals, (uintptr_t)p), j = i;
    while (j < nreals && reals[j].addr == (uintptr_t)p)
        j++;
    if (j - i == 1)
        return (int)reals[i].id;
    int best = -1; /* an alias: the newest variant of `symbol` at or before `version` with that stream flag */
    for (; symbol && i < j; i++) {
        const struct ct_variant *v = &ct_variants[reals[i].id];
        if (strcmp(v->name, symbol) == 0 && (v->vflags != 0) == (per_thread != 0) && v->version <= version &&
            (best < 0 || v->version > ct_variants[best].version))
            best = (int)reals[i].id;
    }
    return best;
}

void *ct_wrap(void *p, const char *symbol, unsigned version, int per_thread)
{
    if (!p || ct_is_trampoline(p))
        return p;
    int id = ct_identify(p, symbol, version, per_thread);
    if (id >= 0)
        return ct_trampoline((unsigned)id);
    ct_rec_untraced(symbol && *symbol ? symbol : "?");
    return p;
}
