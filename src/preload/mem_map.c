/* The allocations the tracer saw (mem_map.h): a sorted array of ranges under a sequence lock, and the hooks
 * that keep it. */
#include "config.h"

#include <pthread.h>
#include <sys/mman.h>

#include "preload/decode.h"
#include "preload/hooks.h"
#include "preload/mem_map.h"
#include "recorder/forklock.h"

#define CAP (1u << 20) /* ranges: 24 MiB of address space, touched only where used; past it, not kept */
#define TRIES 16       /* a reader that sees this many changes under way asks the driver instead */

struct range {
    uint64_t start, end, kind; /* kind: enum ct_mem_kind in the low half, the device ordinal in the high */
};

static struct range *tab;  /* sorted by start, disjoint; every field read and written atomically */
static unsigned used;
static unsigned seq;       /* odd while a writer changes the table */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
/* The map misses allocations: it was emptied once, or an allocation came while its table could not be
 * mapped.  A lookup that finds nothing then cannot say "never allocated". */
static int unsure;

/* The sequence lock without fences (which ThreadSanitizer cannot follow): a reader's loads are acquire, so
 * its second look at seq comes after the ranges it read; a writer's stores are release, so the odd seq is
 * seen before any range it changes.  On x86-64 both are plain moves. */
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

/* Index of the first range whose start is above p (0..n). */
static unsigned above(const struct range *t, unsigned n, uint64_t p)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (LOAD(t[mid].start) <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ct_mem_map_lookup(uint64_t p, enum ct_mem_kind *kind, int32_t *device)
{
    struct range *t = __atomic_load_n(&tab, __ATOMIC_ACQUIRE);
    const int miss = __atomic_load_n(&unsure, __ATOMIC_ACQUIRE) ? -1 : 0;
    *kind = CT_MEM_UNKNOWN;
    *device = -1;
    if (!t)
        return miss;
    for (int i = 0; i < TRIES; i++) {
        unsigned s = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
        if (s & 1)
            continue;
        unsigned n = LOAD(used), k = above(t, n > CAP ? CAP : n, p);
        uint64_t w = k > 0 && p < LOAD(t[k - 1].end) ? LOAD(t[k - 1].kind) : CT_MEM_UNKNOWN;
        if (LOAD(seq) == s) {
            if ((uint32_t)w == CT_MEM_UNKNOWN)
                return miss;
            *kind = (enum ct_mem_kind)(uint32_t)w;
            *device = (int32_t)(uint32_t)(w >> 32);
            return 1;
        }
    }
    return -1; /* a writer kept changing the table */
}

/* Writers: under mu, between begin() and end(). */
static void begin(void)
{
    pthread_mutex_lock(&mu);
    STORE(seq, seq + 1);
}

static void end(void)
{
    __atomic_store_n(&seq, seq + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&mu);
}

static void move(unsigned to, unsigned from)
{
    STORE(tab[to].start, tab[from].start);
    STORE(tab[to].end, tab[from].end);
    STORE(tab[to].kind, tab[from].kind);
}

/* Drop ranges [i, j). */
static void drop(unsigned i, unsigned j)
{
    unsigned n = used;
    for (unsigned k = j; k < n; k++)
        move(i + k - j, k);
    STORE(used, n - (j - i));
}

/* A fork while another thread changes the map: the child must find the mutex free.  Where the lock was out
 * of reach (recorder/forklock.h: a fork from a signal handler), a change may have been cut short: the
 * child's map is emptied, and says so (unsure). */
static int fork_taken;
static void lock_for_fork(void) { fork_taken = ct_fork_lock(&mu); }
static void unlock_in_parent(void) { ct_fork_unlock(&mu, fork_taken); }
static void unlock_in_child(void)
{
    pthread_mutex_init(&mu, NULL);
    if (!fork_taken) {
        STORE(used, 0);
        STORE(seq, 0);
        STORE(unsure, 1);
    }
}
static void register_fork(void) { pthread_atfork(lock_for_fork, unlock_in_parent, unlock_in_child); }

void ct_mem_map_add(uint64_t start, uint64_t bytes, enum ct_mem_kind kind, int32_t device)
{
    if (!bytes || start + bytes < start)
        return;
    pthread_once(&fork_once, register_fork);
    if (!__atomic_load_n(&tab, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&mu);
        if (!tab) {
            void *m = mmap(NULL, (size_t)CAP * sizeof *tab, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m != MAP_FAILED)
                __atomic_store_n(&tab, (struct range *)m, __ATOMIC_RELEASE);
            else
                __atomic_store_n(&unsure, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&mu);
        if (!tab)
            return; /* every address stays unknown: the driver answers */
    }
    const uint64_t stop = start + bytes;
    begin();
    /* Ranges it overlaps are gone (freed where the tracer could not see it). */
    unsigned i = above(tab, used, start);
    if (i > 0 && tab[i - 1].end > start)
        i--;
    unsigned j = i;
    while (j < used && tab[j].start < stop)
        j++;
    drop(i, j);
    if (used < CAP) {
        for (unsigned k = used; k > i; k--)
            move(k, k - 1);
        STORE(tab[i].start, start);
        STORE(tab[i].end, stop);
        STORE(tab[i].kind, (uint64_t)(uint32_t)device << 32 | (uint32_t)kind);
        STORE(used, used + 1);
    }
    end();
}

void ct_mem_map_remove(uint64_t p)
{
    if (!__atomic_load_n(&tab, __ATOMIC_ACQUIRE))
        return;
    begin();
    unsigned k = above(tab, used, p);
    if (k > 0 && p < tab[k - 1].end)
        drop(k - 1, k);
    end();
}

void ct_mem_map_clear(void)
{
    __atomic_store_n(&unsure, 1, __ATOMIC_RELEASE);
    if (!__atomic_load_n(&tab, __ATOMIC_ACQUIRE))
        return;
    begin();
    STORE(used, 0);
    end();
}

/* ---- the hooks: every successful allocation, every free (hooks.h) ---- */

#define OK(r, p) ((r) == CUDA_SUCCESS && (p) != NULL)

void ct_hook_cuMemAlloc_v3020(CUresult r, CUdeviceptr *dptr, size_t bytesize)
{
    if (OK(r, dptr))
        ct_mem_map_add(*dptr, bytesize, CT_MEM_DEVICE, ct_current_device());
}

void ct_hook_cuMemAlloc_v2000(CUresult r, CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
    if (OK(r, dptr))
        ct_mem_map_add(*dptr, bytesize, CT_MEM_DEVICE, ct_current_device());
}

void ct_hook_cuMemAllocPitch_v3020(CUresult r, CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                   unsigned int ElementSizeBytes)
{
    (void)WidthInBytes, (void)ElementSizeBytes;
    if (OK(r, dptr) && pPitch)
        ct_mem_map_add(*dptr, (uint64_t)*pPitch * Height, CT_MEM_DEVICE, ct_current_device());
}

void ct_hook_cuMemAllocPitch_v2000(CUresult r, CUdeviceptr_v1 *dptr, unsigned int *pPitch, unsigned int WidthInBytes,
                                   unsigned int Height, unsigned int ElementSizeBytes)
{
    (void)WidthInBytes, (void)ElementSizeBytes;
    if (OK(r, dptr) && pPitch)
        ct_mem_map_add(*dptr, (uint64_t)*pPitch * Height, CT_MEM_DEVICE, ct_current_device());
}

void ct_hook_cuMemAllocManaged(CUresult r, CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    (void)flags;
    if (OK(r, dptr))
        ct_mem_map_add(*dptr, bytesize, CT_MEM_MANAGED, ct_current_device());
}

void ct_hook_cuMemAllocHost(CUresult r, void **pp, size_t bytesize)
{
    if (OK(r, pp))
        ct_mem_map_add((uintptr_t)*pp, bytesize, CT_MEM_PINNED, -1);
}

void ct_hook_cuMemHostAlloc(CUresult r, void **pp, size_t bytesize, unsigned int Flags)
{
    (void)Flags;
    if (OK(r, pp))
        ct_mem_map_add((uintptr_t)*pp, bytesize, CT_MEM_PINNED, -1);
}

void ct_hook_cuMemHostRegister(CUresult r, void *p, size_t bytesize, unsigned int Flags)
{
    (void)Flags;
    if (r == CUDA_SUCCESS)
        ct_mem_map_add((uintptr_t)p, bytesize, CT_MEM_PINNED, -1);
}

void ct_hook_cuMemAllocAsync(CUresult r, CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    (void)hStream;
    if (OK(r, dptr))
        ct_mem_map_add(*dptr, bytesize, CT_MEM_DEVICE, ct_current_device());
}

void ct_hook_cuMemAllocFromPoolAsync(CUresult r, CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                     CUstream hStream)
{
    (void)pool, (void)hStream;
    if (OK(r, dptr))
        ct_mem_map_add(*dptr, bytesize, CT_MEM_DEVICE, ct_current_device());
}

/* A successful free forgets the range (a failed one freed nothing: its memory is still what it was). */
void ct_hook_cuMemFree(CUresult r, CUdeviceptr dptr)
{
    if (r == CUDA_SUCCESS)
        ct_mem_map_remove(dptr);
}

void ct_hook_cuMemFreeHost(CUresult r, void *p)
{
    if (r == CUDA_SUCCESS)
        ct_mem_map_remove((uintptr_t)p);
}

void ct_hook_cuMemHostUnregister(CUresult r, void *p)
{
    if (r == CUDA_SUCCESS)
        ct_mem_map_remove((uintptr_t)p);
}

void ct_hook_cuMemFreeAsync(CUresult r, CUdeviceptr dptr, CUstream hStream)
{
    (void)hStream;
    if (r == CUDA_SUCCESS)
        ct_mem_map_remove(dptr);
}
