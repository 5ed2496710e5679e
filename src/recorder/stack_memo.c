#define _GNU_SOURCE /* pthread_getattr_np */
#include "config.h"

#include "recorder/stack_memo.h"

#if CT_STACK_MEMO
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "recorder/clock.h"
#include "recorder/alloc.h"

#define SETS 256u /* made when first used: a thread pays for the sets its stacks fall in (9 KiB each) */
#define WAYS 8u
#define FAILED 512u /* keys not learnt again: their walk could not be vouched for, or their memo did not hold */
/* Learning a walk costs tens of microseconds (libunwind's step-by-step walk): a thread may spend on it a
 * 32nd of its time, saved up to LEARN_SAVED_NS (which it starts with). */
#define LEARN_SHARE 32
#define LEARN_SAVED_NS 20000000

struct set {
    unsigned next; /* the way to replace next */
    struct ct_stack_memo m[WAYS];
};

struct memos {
    uintptr_t lo, hi; /* the thread's stack: every word a memo reads lies in [base, hi) */
    unsigned long hits;
    uint64_t credit_at_ns; /* when learn_credit_ns was last brought up to date */
    int64_t learn_credit_ns;
    uint64_t failed[FAILED]; /* hashes of keys (with their base) not to learn again */
    struct set *set[SETS];
};

static __thread struct memos *memos __attribute__((tls_model("initial-exec")));
static __thread int memos_gone __attribute__((tls_model("initial-exec"))); /* freed at thread exit: not again */
static pthread_key_t memos_key;
static pthread_once_t memos_once = PTHREAD_ONCE_INIT;
static int memos_keyed;

static void memos_free(void *p)
{
    struct memos *ms = p;
    if (memos == ms)
        memos = NULL;
    memos_gone = 1;
    for (unsigned i = 0; i < SETS; i++)
        ct_free(ms->set[i]);
    ct_free(ms);
}

static void memos_key_make(void) { memos_keyed = pthread_key_create(&memos_key, memos_free) == 0; }

/* The thread's memos, made on its first memo (with its stack's bounds); NULL when they cannot be had. */
static struct memos *memos_of_thread(void)
{
    if (memos || memos_gone)
        return memos;
    pthread_once(&memos_once, memos_key_make);
    pthread_attr_t a;
    void *lo;
    size_t size;
    struct memos *ms;
    sigset_t old;
    memos_gone = 1; /* one try per thread */
    if (!memos_keyed)
        return NULL;
    /* pthread_getattr_np reads /proc/self/maps through stdio and pthread_setspecific may grow a table: both
     * allocate (alloc.h). */
    ct_signals_block(&old);
    const int got = pthread_getattr_np(pthread_self(), &a) == 0;
    int ok = got && pthread_attr_getstack(&a, &lo, &size) == 0;
    if (got)
        pthread_attr_destroy(&a);
    ms = ok ? ct_calloc(1, sizeof *ms) : NULL;
    if (ms && pthread_setspecific(memos_key, ms) != 0) {
        ct_free(ms);
        ms = NULL;
    }
    ct_signals_restore(&old);
    if (!ms)
        return NULL;
    ms->lo = (uintptr_t)lo;
    ms->hi = (uintptr_t)lo + size;
    ms->credit_at_ns = ct_now_ns();
    ms->learn_credit_ns = LEARN_SAVED_NS;
    memos_gone = 0;
    return memos = ms;
}

unsigned long ct_stack_memo_hits(void) { return memos ? memos->hits : 0; }

/* A base's set, by the base and the return address into ct_stack_capture's caller (the tracer's function
 * that asked: stacks of different kinds of call at one base fall in different sets). */
static unsigned set_of(uintptr_t base)
{
    uint64_t ra = *(const uintptr_t *)(base + CT_STACK_ENTRY_FRAME - sizeof(uintptr_t));
    return (unsigned)(((uint64_t)base ^ ra * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull >> 54) % SETS;
}

/* The words are read as the unwinder would: a plain load of the thread's own stack, above base. */
__attribute__((no_sanitize_address)) struct ct_stack_memo *ct_stack_memo_find(uintptr_t base)
{
    struct memos *ms = memos;
    struct set *set;

    if (!ms || !(set = ms->set[set_of(base)]))
        return NULL;
    for (unsigned w = 0; w < WAYS; w++) {
        struct ct_stack_memo *m = &set->m[w];
        if (m->base != base)
            continue;
        unsigned i = 0;
        while (i < m->nchk && *(const uintptr_t *)(base + m->chk_off[i]) == m->chk_val[i])
            i++;
        if (i == m->nchk) {
            ms->hits++;
            return m;
        }
    }
    return NULL;
}

void ct_stack_memo_repy(struct ct_stack_memo *m, void *const *py, int npy, uint32_t id)
{
    if (npy > CT_MEMO_PY) {
        m->npy = UINT16_MAX; /* never equal: such a key is looked up each time */
        return;
    }
    memcpy(m->py, py, (size_t)npy * sizeof *py);
    m->npy = (uint16_t)npy;
    m->id = id;
}

/* Add a check of the word at addr, which must hold val and lie where the memo may read it. */
__attribute__((no_sanitize_address)) static int check(struct ct_stack_memo *m, const struct memos *ms,
                                                      uintptr_t base, uintptr_t addr, uintptr_t val)
{
    if (addr < base || addr > ms->hi - sizeof(uintptr_t) || addr - base > UINT32_MAX || (addr & 7) ||
        *(const uintptr_t *)addr != val)
        return -1;
    if (m->nchk == CT_MEMO_CHECKS)
        return -1;
    m->chk_off[m->nchk] = (uint32_t)(addr - base);
    m->chk_val[m->nchk++] = val;
    return 0;
}

/* Learn the words that decided the key's frames from the caller of ct_stack_capture on: those before it are
 * the tracer's, the same for every walk from this base (their return addresses are constants).  The walk
 * starts in this function, so that caller's frame is found by its stack pointer, base + CT_STACK_ENTRY_FRAME. */
__attribute__((noinline, no_sanitize_address)) static int learn(struct ct_stack_memo *m, const struct memos *ms,
                                                                uintptr_t base, void *const *raw, int key,
                                                                int ended)
{
    unw_context_t uc;
    unw_cursor_t c;
    unw_word_t ip, sp, bp, nsp = 0;
    int first = 0;

    if (unw_getcontext(&uc) != 0 || unw_init_local(&c, &uc) < 0)
        return -1;
    for (int up = 0;; up++) {
        if (up > 8 || unw_get_reg(&c, UNW_REG_SP, &sp) < 0)
            return -1;
        if (sp == base + CT_STACK_ENTRY_FRAME)
            break;
        if (unw_step(&c) <= 0)
            return -1;
    }
    if (unw_get_reg(&c, UNW_REG_IP, &ip) < 0)
        return -1;
    while (++first < key && first < 6 && (unw_word_t)(uintptr_t)raw[first] != ip)
        ;
    if (first >= key || first == 6)
        return -1;
    for (int r = first; r < key; r++) {
        unw_save_loc_t bp_at;
        if (unw_get_reg(&c, UNW_REG_IP, &ip) < 0 || ip != (unw_word_t)(uintptr_t)raw[r] ||
            unw_get_reg(&c, UNW_X86_64_RBP, &bp) < 0 || unw_get_save_loc(&c, UNW_X86_64_RBP, &bp_at) < 0 ||
            unw_is_signal_frame(&c) > 0)
            return -1; /* not the key's frame, or a signal frame (the next one's registers come from its context) */
        if (check(m, ms, base, sp - 8, ip) < 0) /* where the call left this frame's return address */
            return -1;
        int more = unw_step(&c);
        if (more < 0 || (more == 0 && (r + 1 < key || !ended)))
            return -1; /* this walk ends before the key does: the key's last frames are the fast walk's guesses */
        if (more > 0 && unw_get_reg(&c, UNW_REG_SP, &nsp) < 0)
            return -1;
        /* The fast walk stopped where this one goes on: at the next return address (0 at a thread's first
         * frame), which is then checked too. */
        if (more > 0 && r + 1 == key && ended &&
            (unw_get_reg(&c, UNW_REG_IP, &ip) < 0 || check(m, ms, base, nsp - 8, ip) < 0))
            return -1;
        /* %rbp within the frame (for the last frame, anywhere above it): the frame's rule may have used it. */
        if (bp >= sp && (more == 0 || bp < nsp)) {
            if (bp_at.type != UNW_SLT_MEMORY || check(m, ms, base, bp_at.u.addr, bp) < 0)
                return -1;
            /* Not the usual frame (its top 16 above %rbp): a function that realigns its stack finds its top
             * in a word just below %rbp, which is then checked too. */
            if (more > 0 && nsp != bp + 16 && bp <= ms->hi)
                for (uintptr_t a = bp - 8; a >= sp && a + 64 >= bp; a -= 8)
                    if (*(const uintptr_t *)a == nsp && check(m, ms, base, a, nsp) < 0)
                        return -1;
        }
        if (more == 0) {
            /* Both walks end here.  What may have ended them: a frame pointer of 0 (a frame without rules),
             * or a return address of 0 at the top of the frame. */
            if (bp == 0 && bp_at.type == UNW_SLT_MEMORY && check(m, ms, base, bp_at.u.addr, 0) < 0)
                return -1;
            if (unw_get_reg(&c, UNW_REG_SP, &nsp) == 0 && nsp > sp && nsp <= ms->hi &&
                *(const uintptr_t *)(nsp - 8) == 0 && check(m, ms, base, nsp - 8, 0) < 0)
                return -1;
        }
        sp = nsp;
    }
    return 0;
}

void ct_stack_memo_make(uintptr_t base, void *const *raw, int key, int ended, int ins_skip, void *const *py,
                        int npy, uint32_t id)
{
    struct memos *ms = memos_of_thread();

    if (!ms || key < 3 || key > CT_MEMO_FRAMES || base < ms->lo || base >= ms->hi)
        return;
    uint64_t h = ct_stack_hash(base, raw, key), *failed = &ms->failed[h % FAILED];
    if (*failed == h)
        return;
    uint64_t t0 = ct_now_ns();
    ms->learn_credit_ns += (int64_t)((t0 - ms->credit_at_ns) / LEARN_SHARE);
    ms->credit_at_ns = t0;
    if (ms->learn_credit_ns > LEARN_SAVED_NS)
        ms->learn_credit_ns = LEARN_SAVED_NS;
    if (ms->learn_credit_ns <= 0)
        return;
    unsigned k = set_of(base);
    if (!ms->set[k] && !(ms->set[k] = ct_calloc(1, sizeof *ms->set[k])))
        return;
    struct set *set = ms->set[k];
    for (unsigned w = 0; w < WAYS; w++) {
        const struct ct_stack_memo *seen = &set->m[w];
        if (seen->base == base && seen->key == key && memcmp(seen->raw, raw, (size_t)key * sizeof *raw) == 0) {
            *failed = h; /* its memo did not hold: a word it checks changes from call to call */
            return;
        }
    }
    struct ct_stack_memo *m = &set->m[set->next];
    m->base = 0; /* found by no one until whole: a learn that never returns (a handler's longjmp) leaves it so */
    m->nchk = 0;
    int learnt = learn(m, ms, base, raw, key, ended);
    ms->learn_credit_ns -= (int64_t)(ct_now_ns() - t0);
    if (learnt < 0) {
        *failed = h;
        return;
    }
    set->next = (set->next + 1) % WAYS;
    memcpy(m->raw, raw, (size_t)key * sizeof *raw);
    m->key = (uint16_t)key;
    m->ins_skip = (uint16_t)ins_skip;
    m->npy = 0;
    ct_stack_memo_repy(m, py, npy, id);
    m->base = base;
}
#else
unsigned long ct_stack_memo_hits(void) { return 0; }
#endif
