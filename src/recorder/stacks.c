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
#include "recorder/fdhigh.h"
#include "recorder/forklock.h"
#include "recorder/hot.h"
#include "recorder/meta_queue.h"
#include "recorder/modules.h"
#include "recorder/pystack.h"
#include "recorder/settings.h"
#include "recorder/stack_memo.h"
#include "recorder/stacks.h"
#include "recorder/warn.h"
#include "recorder/alloc.h"

/* Frames unwound beyond the kept depth, for the trimmed ones: the trampoline and this file, libunwind, and the
 * runtime's frames between the program and the driver entry point. */
#define TRIM_ROOM 24u
#define RAW_MAX (CT_MAX_STACK_DEPTH + TRIM_ROOM)
#define KEY_MAX (RAW_MAX + CT_PY_WORDS) /* a stack's key: its return addresses, then its Python frames */
#define TABLE_SLOTS (1u << 17) /* distinct raw stacks: at most 3/4 of it are filled */

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

/* The leading internal frames of a raw stack: the trampoline and this file, libunwind, the driver, the
 * runtime.  Scans the loaded objects again for a frame in none known (loaded since the last scan). */
static int trimmed(void *const *raw, int n)
{
    int skip = 0, in;

    for (; skip < n; skip++) {
        uint64_t a = (uint64_t)(uintptr_t)raw[skip];
        if ((in = ct_modules_internal(a)) < 0) {
            ct_modules_scan(0);
            in = ct_modules_internal(a);
        }
        if (in != 1)
            break;
    }
    return skip;
}

/* Queue the CT_REC_STACK of a new stack: cut the `skip` leading internal frames, keep `depth` after them;
 * then the CT_REC_PYSTACK of the `py` Python words that follow the `n` return addresses. */
static int write_stack(uint32_t id, void *const *raw, int n, int skip, int py)
{
    uint64_t frames[RAW_MAX];
    unsigned char rec[sizeof(struct ct_rec_stack) + sizeof frames];
    int kept = 0;

    for (int i = skip; i < n && kept < (int)depth; i++)
        frames[kept++] = (uint64_t)(uintptr_t)raw[i];
    /* Frames past the trimmed ones may come from objects loaded since: map them before the report needs it. */
    for (int i = 0; i < kept; i++)
        if (ct_modules_internal(frames[i]) < 0) {
            ct_modules_scan(0);
            break;
        }
    ct_put_stack(rec, 0, id, frames, (size_t)kept, (unsigned)skip);
    if (ct_meta_push(rec, ct_size_stack((size_t)kept), 1) < 0)
        return -1;
    return py ? ct_pystack_write(id, raw + n, py, frames, kept) : 0;
}

/* A new key of hash h (see ct_stack_capture), its last `py` words Python words: its id, 0 when it gets none,
 * RETRY when the key was cut after `hot_skip` internal frames and `depth` more but there are more internal
 * frames (a module not scanned yet).  An uncut key passes its native length as hot_skip. */
#define RETRY UINT32_MAX
__attribute__((noinline)) static uint32_t insert(uint64_t h, void *const *raw, int n, int py, int hot_skip)
{
    static int warned;
    uint32_t id = 0;
    struct slot *s;
    int found, skip;

    pthread_mutex_lock(&mu);
    /* A new stack: if the loader loaded or unloaded anything since the last scan, scan now, before any frame
     * is looked up.  A library loaded where an unloaded one lay has all its frames in a known range, so the
     * look-ups below would never ask for the scan that gives it its record. */
    ct_modules_scan(0);
    if ((skip = trimmed(raw, n - py)) > hot_skip) {
        id = RETRY;
        goto out;
    }
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
    if (!(s->raw = ct_malloc((size_t)n * sizeof *raw)))
        goto out;
    memcpy(s->raw, raw, (size_t)n * sizeof *raw);
    if (write_stack(next_id, raw, n - py, skip, py) < 0) {
        ct_free(s->raw);
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

/* The id of key raw[0..n), its last `py` words Python words: found in the table, else inserted (insert). */
static uint32_t id_of(void *const *raw, int n, int py, int hot_skip)
{
    const uint64_t h = ct_stack_hash((uint64_t)n, raw, n);
    int found;
    struct slot *s = probe(h, raw, n, &found);
    return found ? s->id : insert(h, raw, n, py, hot_skip);
}

/* Most leading internal frames seen in a stack yet: a walk asks for this many more than it keeps. */
static _Atomic unsigned skip_seen = 4;

static int hot_skip(void *const *raw, int n)
{
    int skip = 0;

    while (skip < n && ct_modules_internal_hot((uint64_t)(uintptr_t)raw[skip]))
        skip++;
    return skip;
}

/* The table's key is the walk's first frames up to the last one kept (the whole walk when the stack ends
 * sooner): all that its stack record is made of, so one key is one record, and the walk stops there instead
 * of going TRIM_ROOM frames further.  When that may cut too soon (more internal frames than skip_seen, or
 * than the hot ranges know: insert says RETRY), the whole walk of raw_depth frames is the key, as it always
 * was.  A key longer than needed is another id for the same record, never one id for two. */
static uint32_t walk(uintptr_t base)
{
    void *raw[KEY_MAX];
    unsigned want = depth + atomic_load_explicit(&skip_seen, memory_order_relaxed);
    int n, skip, key, py;

    if (want > raw_depth)
        want = raw_depth;
    for (int full = 0;; full = 1) {
        int asked = (int)(full ? raw_depth : want);
        if ((n = unw_backtrace(raw, asked)) <= 0)
            return 0;
        skip = n > (int)depth ? hot_skip(raw, n) : 0; /* no more frames than kept: the key is the walk */
        if ((unsigned)skip > atomic_load_explicit(&skip_seen, memory_order_relaxed))
            atomic_store_explicit(&skip_seen, (unsigned)skip, memory_order_relaxed); /* a lost race: asks again */
        if (!full && n == (int)want && skip + (int)depth > n && want < raw_depth)
            continue; /* the walk may have stopped before the last frame kept */
        key = !full && skip + (int)depth < n ? skip + (int)depth : n;
        py = ct_pystack_append(raw + key); /* the Python frames end the key (pystack.h) */
        const int ins_skip = key < n ? skip : key;
        const uint32_t id = id_of(raw, key + py, py, ins_skip);
        if (id == RETRY)
            continue;
#if CT_STACK_MEMO
        if (id)
            ct_stack_memo_make(base, raw, key, key == n && n < asked, ins_skip, raw + key, py, id);
#endif
        return id;
    }
}

#if CT_STACK_MEMO
/* ct_stack_capture pushes %rbp, %rbx and %r12 to %r15 (the unwinder restores the caller's from these
 * slots), aligns the stack and passes its stack pointer, base, to ct_stack_capture_at.  Its frame spans
 * CT_STACK_ENTRY_FRAME bytes from base to the caller's stack pointer (six pushes, the padding, the return
 * address). */
#ifdef __CET__
#define ENDBR "endbr64\n"
#else
#define ENDBR ""
#endif
__asm__(".pushsection .text\n"
        ".p2align 4\n"
        ".globl ct_stack_capture\n"
        ".hidden ct_stack_capture\n"
        ".type ct_stack_capture, @function\n"
        "ct_stack_capture:\n"
        ".cfi_startproc\n" ENDBR
        "pushq %rbp\n.cfi_adjust_cfa_offset 8\n.cfi_rel_offset %rbp, 0\n"
        "pushq %rbx\n.cfi_adjust_cfa_offset 8\n.cfi_rel_offset %rbx, 0\n"
        "pushq %r12\n.cfi_adjust_cfa_offset 8\n.cfi_rel_offset %r12, 0\n"
        "pushq %r13\n.cfi_adjust_cfa_offset 8\n.cfi_rel_offset %r13, 0\n"
        "pushq %r14\n.cfi_adjust_cfa_offset 8\n.cfi_rel_offset %r14, 0\n"
        "pushq %r15\n.cfi_adjust_cfa_offset 8\n.cfi_rel_offset %r15, 0\n"
        "subq $8, %rsp\n.cfi_adjust_cfa_offset 8\n"
        "movq %rsp, %rdi\n"
        "call ct_stack_capture_at\n"
        "addq $8, %rsp\n.cfi_adjust_cfa_offset -8\n"
        "popq %r15\n.cfi_adjust_cfa_offset -8\n.cfi_restore %r15\n"
        "popq %r14\n.cfi_adjust_cfa_offset -8\n.cfi_restore %r14\n"
        "popq %r13\n.cfi_adjust_cfa_offset -8\n.cfi_restore %r13\n"
        "popq %r12\n.cfi_adjust_cfa_offset -8\n.cfi_restore %r12\n"
        "popq %rbx\n.cfi_adjust_cfa_offset -8\n.cfi_restore %rbx\n"
        "popq %rbp\n.cfi_adjust_cfa_offset -8\n.cfi_restore %rbp\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size ct_stack_capture, .-ct_stack_capture\n"
        ".popsection\n");

uint32_t ct_stack_capture_at(uintptr_t base);

/* The C side of ct_stack_capture: a remembered walk when this base's words are as they were, its Python
 * frames read again; else a walk. */
uint32_t ct_stack_capture_at(uintptr_t base)
{
    struct ct_stack_memo *m = ct_stack_memo_find(base);

    if (m) {
        void *k[KEY_MAX];
        int key = m->key, py = ct_pystack_append(k + key);
        if (py == m->npy && memcmp(k + key, m->py, (size_t)py * sizeof *k) == 0)
            return m->id;
        memcpy(k, m->raw, (size_t)key * sizeof *k);
        const uint32_t id = id_of(k, key + py, py, m->ins_skip);
        if (id != RETRY) {
            if (id)
                ct_stack_memo_repy(m, k + key, py, id);
            return id;
        }
        m->base = 0; /* cut too soon (a module loaded since): walk again, and learn the longer key */
    }
    return walk(base); /* one call site: every walk from here has the same internal frames */
}
#else
uint32_t ct_stack_capture(void) { return walk(0); }
#endif
#else
/* Never called: ct_stack_start leaves ct_stack_families 0 in a build without libunwind. */
uint32_t ct_stack_capture(void) { return 0; }
#endif

/* libunwind opens a pipe (to validate memory) when first used, taking the two lowest free descriptors: now,
 * with this thread's pipe and pipe2 moving them high (fdhigh.h), rather than at the first stack walk, in
 * the middle of the program (which may have closed 0 and 1 by then). */
static void start_libunwind(void)
{
#ifdef HAVE_LIBUNWIND
    unw_context_t uc;
    unw_cursor_t c;
    ct_fd_own_pipes = 1;
    if (unw_getcontext(&uc) == 0)
        (void)unw_init_local(&c, &uc);
    ct_fd_own_pipes = 0;
#endif
}

unsigned ct_stack_start(int mode, unsigned d)
{
    if (mode == CT_STACKS_NONE)
        return 0;
    start_libunwind();
    pthread_mutex_lock(&mu);
    if (!table && !(table = ct_calloc(TABLE_SLOTS, sizeof *table))) {
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

int ct_stack_fork_lock(void) { return ct_fork_lock(&mu); }

void ct_stack_fork_unlock(int taken, int child)
{
    if (child)
        pthread_mutex_init(&mu, NULL);
    else
        ct_fork_unlock(&mu, taken);
}
