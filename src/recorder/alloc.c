#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "recorder/alloc.h"
#include "recorder/forklock.h"

void ct_signals_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);
}

void ct_signals_restore(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Every signal blocked, and the heap's lock held, for the time of expr. */
#define LOCKED(expr)                                                                                     \
    do {                                                                                                 \
        sigset_t old_;                                                                                   \
        ct_signals_block(&old_);                                                                         \
        pthread_mutex_lock(&mu);                                                                         \
        expr;                                                                                            \
        pthread_mutex_unlock(&mu);                                                                       \
        ct_signals_restore(&old_);                                                                       \
    } while (0)

/* fork: the lock held across it where it can be (forklock.h).  Registered when the library loads, before
 * any other fork handler of the tracer, so that this prepare handler runs after theirs (whose locks' holders
 * allocate) and this child handler before theirs (which may allocate). */
static int fork_taken;
static void fork_prepare(void) { fork_taken = ct_fork_lock(&mu); }
static void fork_parent(void) { ct_fork_unlock(&mu, fork_taken); }
static void fork_child(void) { pthread_mutex_init(&mu, NULL); }
__attribute__((constructor)) static void register_fork(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
static void *heap_alloc(size_t size, int zero)
{
    return size > SIZE_MAX / 2 ? NULL : zero ? calloc(1, size) : malloc(size);
}
static void *heap_aligned(size_t align, size_t size) { return aligned_alloc(align, (size + align - 1) / align * align); }
static void *heap_resize(void *p, size_t size) { return size > SIZE_MAX / 2 ? NULL : realloc(p, size); }
static void heap_free(void *p) { free(p); }
#else
/* Blocks of up to 32 KiB are carved from 64 KiB chunks, aligned on 64 KiB, one size class (a power of two)
 * per chunk; a bigger block is a mapping of its own.  Either way the chunk's first 64 bytes say which, so
 * free finds them by rounding the pointer down. */
enum { CHUNK = 64 << 10, HEAD = 64, MIN_SHIFT = 4, MAX_SHIFT = 15, NCLASS = MAX_SHIFT - MIN_SHIFT + 1 };
#define LARGE UINT32_MAX
#define MAGIC 0x43544845u /* "CTHE" */

struct chunk {
    uint32_t magic, cls; /* cls: the class's shift, or LARGE */
    size_t len;          /* LARGE: the mapping's length */
};
struct free_block {
    struct free_block *next;
};
static struct free_block *free_list[NCLASS];

/* len bytes mapped at a multiple of CHUNK, or NULL. */
static void *map_aligned(size_t len)
{
    char *p = mmap(NULL, len + CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    const size_t lead = (CHUNK - (uintptr_t)p % CHUNK) % CHUNK;
    if (lead)
        munmap(p, lead);
    munmap(p + lead + len, CHUNK - lead);
    return p + lead;
}

static struct chunk *chunk_of(void *p) { return (struct chunk *)((uintptr_t)p & ~(uintptr_t)(CHUNK - 1)); }

static unsigned shift_for(size_t size)
{
    unsigned s = MIN_SHIFT;
    while (((size_t)1 << s) < size)
        s++;
    return s;
}

/* Under the lock.  zero: cleared (a new mapping already is). */
static void *heap_alloc(size_t size, int zero)
{
    if (size > (size_t)1 << MAX_SHIFT) {
        if (size > SIZE_MAX / 2)
            return NULL;
        const size_t len = (size + HEAD + 4095) & ~(size_t)4095;
        struct chunk *c = map_aligned(len);
        if (!c)
            return NULL;
        *c = (struct chunk){MAGIC, LARGE, len};
        return (char *)c + HEAD;
    }
    const unsigned s = shift_for(size), k = s - MIN_SHIFT;
    if (!free_list[k]) {
        struct chunk *c = map_aligned(CHUNK);
        if (!c)
            return NULL;
        *c = (struct chunk){MAGIC, s, CHUNK};
        const size_t bs = (size_t)1 << s;
        for (size_t off = CHUNK - bs; off >= HEAD && off >= bs; off -= bs) {
            struct free_block *b = (struct free_block *)((char *)c + off);
            b->next = free_list[k];
            free_list[k] = b;
        }
    }
    struct free_block *b = free_list[k];
    free_list[k] = b->next;
    if (zero)
        memset(b, 0, (size_t)1 << s);
    return b;
}

static size_t usable(void *p)
{
    const struct chunk *c = chunk_of(p);
    return c->cls == LARGE ? c->len - HEAD : (size_t)1 << c->cls;
}

static void heap_free(void *p)
{
    struct chunk *c = chunk_of(p);
    if (c->magic != MAGIC)
        abort(); /* not the tracer's block: a bug that must not pass silently */
    if (c->cls == LARGE) {
        munmap(c, c->len);
        return;
    }
    struct free_block *b = p;
    b->next = free_list[c->cls - MIN_SHIFT];
    free_list[c->cls - MIN_SHIFT] = b;
}

static void *heap_resize(void *p, size_t size)
{
    const size_t have = usable(p);
    if (size <= have && (size > have / 2 || have <= 16))
        return p;
    void *q = heap_alloc(size, 0);
    if (q) {
        memcpy(q, p, size < have ? size : have);
        heap_free(p);
    }
    return q;
}

/* Every block of a class is aligned on the class's size (the classes from 64 bytes up start at a multiple
 * of it), and a mapping's block on HEAD bytes. */
static void *heap_aligned(size_t align, size_t size) { return heap_alloc(size < align ? align : size, 0); }
#endif

void *ct_malloc(size_t size)
{
    void *p;
    LOCKED(p = heap_alloc(size ? size : 1, 0));
    return p;
}

void *ct_calloc(size_t n, size_t size)
{
    void *p;
    if (size && n > SIZE_MAX / size)
        return NULL;
    const size_t total = n * size;
    LOCKED(p = heap_alloc(total ? total : 1, 1));
    return p;
}

void *ct_realloc(void *p, size_t size)
{
    void *q;
    if (!p)
        return ct_malloc(size);
    LOCKED(q = heap_resize(p, size ? size : 1));
    return q;
}

void *ct_aligned_alloc(size_t align, size_t size)
{
    void *p;
    if (align == 0 || (align & (align - 1)) || align > 64)
        return NULL;
    LOCKED(p = heap_aligned(align, size ? size : 1));
    return p;
}

char *ct_strdup(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = ct_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void ct_free(void *p)
{
    if (p)
        LOCKED(heap_free(p));
}
