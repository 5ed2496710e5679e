/* Walks remembered per thread, so that a call stack seen before costs a few dozen loads instead of an unwind
 * (x86-64 with libunwind; elsewhere CT_STACK_MEMO is 0 and stacks.c always walks).
 *
 * ct_stack_capture (stacks.c, in assembly) pushes the six callee-saved registers, then calls
 * ct_stack_capture_at(base) with base = its stack pointer: beyond that frame the unwinder reads every register
 * it needs from memory above base, never from the tracer's own registers.  A walk from base is then decided
 * by the stack words it reads.  A memo keeps, for one base, the words that decide its frames: each frame's
 * return address where the call left it (8 below the frame's top), and the frame pointer of each frame that
 * may have used one (%rbp within its frame) where the unwinder found it.  When all are as they were, so is
 * the walk.  It cannot see a frame whose rule reads another stack word: a function that realigns its stack,
 * entered again at another alignment with every frame below it at the same place (doc/recording.md).
 *
 * Learning a memo takes a second, step-by-step walk (tens of microseconds), so a thread spends at most a
 * 32nd of its time on it, and a stack is not learnt again when it cannot be vouched for (a signal frame, a
 * walk that the step-by-step walk ends sooner) or when its memo did not hold (a word it checks changes). */
#ifndef CT_RECORDER_STACK_MEMO_H
#define CT_RECORDER_STACK_MEMO_H

#include <stdint.h>

/* config.h comes first in every .c file: HAVE_LIBUNWIND. */
#if defined(HAVE_LIBUNWIND) && defined(__x86_64__)
#define CT_STACK_MEMO 1
#else
#define CT_STACK_MEMO 0
#endif

#define CT_STACK_ENTRY_FRAME 64u /* ct_stack_capture's frame (stacks.c): from base to its caller's stack */
#define CT_MEMO_FRAMES 40 /* longer keys are not remembered */
#define CT_MEMO_PY 17     /* Python words kept with a memo (the default depth's 16 frames and the count) */
#define CT_MEMO_CHECKS 56 /* words checked per memo: a key with more is not remembered */

/* The hash of n stack words after a seed (stacks.c's table of stacks, the memos' refused keys): never 0. */
static inline uint64_t ct_stack_hash(uint64_t seed, void *const *w, int n)
{
    uint64_t h = seed * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < n; i++) {
        h = (h ^ (uint64_t)(uintptr_t)w[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h ? h : 1;
}

struct ct_stack_memo {
    uintptr_t base; /* 0: empty */
    uint32_t id;    /* the stack id of raw[0..key) followed by py[0..npy) */
    uint16_t key, npy, ins_skip; /* ins_skip: what stacks.c's insert() takes as hot_skip for this key */
    uint16_t nchk;
    void *raw[CT_MEMO_FRAMES];
    void *py[CT_MEMO_PY];
    uint32_t chk_off[CT_MEMO_CHECKS]; /* the words checked: at base + chk_off[i], chk_val[i] */
    uintptr_t chk_val[CT_MEMO_CHECKS];
};

/* How many of the calling thread's captures its memos answered so far (for tests); 0 without memos. */
unsigned long ct_stack_memo_hits(void);

#if CT_STACK_MEMO
/* The calling thread's memo for this base whose words are all as they were, or NULL. */
struct ct_stack_memo *ct_stack_memo_find(uintptr_t base);

/* Remember the walk that gave key raw[0..key) (followed by the Python words py[0..npy)) its id, for this
 * base: walks the stack again to learn where its words are, from the function that called
 * ct_stack_capture_at.  `ended`: the walk stopped before the frames it was asked for (the stack ends there).
 * Does nothing when the thread's stack is not known, the thread has spent its time for learning, the key
 * was refused before, or the walk cannot be vouched for (then the key is refused from now on). */
void ct_stack_memo_make(uintptr_t base, void *const *raw, int key, int ended, int ins_skip, void *const *py,
                        int npy, uint32_t id);

/* A hit whose Python words differ: the memo now stands for these words and id. */
void ct_stack_memo_repy(struct ct_stack_memo *m, void *const *py, int npy, uint32_t id);
#endif

#endif
