/* The per-handle name cache.
 *
 * An open-addressed table of {handle, generation:name id} pairs, allocated on first use.  Readers take no
 * lock: a slot's key, once set, never changes, and its value is one 64-bit word published after the name
 * was interned.  Inserts take a mutex (a first launch of a kernel may be slow).  Unloading a module or
 * library starts a new generation, so a handle reused by later code is named again.  When the table is full
 * names are still found, just not cached. */
#include "config.h"

#include "preload/kernel_names.h"

#include "preload/hooks.h"
#include "recorder/hot.h"
#include "preload/interpose.h"
#include "recorder/alloc.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#define SLOTS (1u << 16) /* 1 MiB, touched only where used */
#define MAX_FILL (SLOTS / 4 * 3)

struct slot {
    uint64_t key;   /* handle; 0 = empty */
    uint64_t value; /* generation << 32 | name id; 0 = not yet published */
};

static struct slot *table;
static unsigned filled;
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (SLOTS - 1);
}

/* The slot of `key`, or the empty slot where it would go, or NULL when the table is full. */
static struct slot *probe(struct slot *t, uint64_t key)
{
    for (size_t i = hash(key), n = 0; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
        uint64_t k = __atomic_load_n(&t[i].key, __ATOMIC_ACQUIRE);
        if (k == key || k == 0)
            return &t[i];
    }
    return NULL;
}

static int cached(uint64_t key, uint32_t *id)
{
    struct slot *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE), *s;
    if (!t || !(s = probe(t, key)) || __atomic_load_n(&s->key, __ATOMIC_ACQUIRE) != key)
        return 0;
    uint64_t v = __atomic_load_n(&s->value, __ATOMIC_ACQUIRE);
    if ((uint32_t)(v >> 32) != __atomic_load_n(&ct_kernel_name_generation, __ATOMIC_ACQUIRE))
        return 0;
    *id = (uint32_t)v;
    return 1;
}

static void remember(uint64_t key, uint32_t id, uint32_t gen)
{
    pthread_mutex_lock(&insert_lock);
    if (!table)
        __atomic_store_n(&table, ct_calloc(SLOTS, sizeof *table), __ATOMIC_RELEASE);
    struct slot *s = table ? probe(table, key) : NULL;
    if (s && (s->key == key || filled < MAX_FILL)) {
        __atomic_store_n(&s->value, (uint64_t)gen << 32 | id, __ATOMIC_RELEASE);
        if (s->key != key) {
            __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
            filled++;
        }
    }
    pthread_mutex_unlock(&insert_lock);
}

static uint32_t driver_name_id(const void *handle)
{
    const char *name = NULL;
    CT_PFN_cuFuncGetName func_name = CT_DRIVER(cuFuncGetName);
    CT_PFN_cuKernelGetName kernel_name = CT_DRIVER(cuKernelGetName);
    /* A launch may pass a CUkernel cast to CUfunction (the runtime's cuLibrary path): the function query
     * refuses such a handle, the kernel query names it. */
    if (!(func_name && func_name(&name, (CUfunction)(uintptr_t)handle) == CUDA_SUCCESS && name) &&
        !(kernel_name && kernel_name(&name, (CUkernel)(uintptr_t)handle) == CUDA_SUCCESS && name))
        return 0;
    return ct_rec_intern(CT_STR_KERNEL, name);
}

static uint32_t symbol_name_id(const void *fn)
{
    Dl_info info;
    return dladdr(fn, &info) && info.dli_sname && info.dli_saddr == fn ? ct_rec_intern(CT_STR_KERNEL, info.dli_sname)
                                                                       : 0;
}

/* The last handle this thread named: loops launching one kernel skip the table. */
static __thread struct slot last __attribute__((tls_model("initial-exec")));

CT_HOT_CODE static uint32_t name_id(const void *handle, uint32_t (*find)(const void *))
{
    uint32_t id, gen = __atomic_load_n(&ct_kernel_name_generation, __ATOMIC_ACQUIRE);
    if (!handle)
        return 0;
    if (last.key == (uintptr_t)handle && (uint32_t)(last.value >> 32) == gen)
        return (uint32_t)last.value;
    if (!cached((uintptr_t)handle, &id)) {
        ct_guard++;
        id = find(handle);
        ct_guard--;
        remember((uintptr_t)handle, id, gen); /* unnamed ones too: never ask the driver on every launch */
    }
    last = (struct slot){(uintptr_t)handle, (uint64_t)gen << 32 | id};
    return id;
}

CT_HOT_CODE uint32_t ct_kernel_name_id(const void *handle)
{
    return name_id(handle, driver_name_id);
}

uint32_t ct_host_fn_name_id(const void *fn)
{
    return name_id(fn, symbol_name_id);
}

static void new_generation(CUresult r)
{
    if (r == CUDA_SUCCESS)
        __atomic_add_fetch(&ct_kernel_name_generation, 1, __ATOMIC_ACQ_REL);
}

void ct_hook_cuModuleUnload(CUresult r, CUmodule hmod)
{
    new_generation(r);
}

void ct_hook_cuLibraryUnload(CUresult r, CUlibrary library)
{
    new_generation(r);
}
