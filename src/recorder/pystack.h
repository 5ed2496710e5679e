/* Python frames in call stacks (CUDATRACE_PYTHON_STACKS): when the process runs CPython 3.8 to 3.13, a
 * captured stack also carries the calling thread's Python frames.  They are read from the thread's own
 * frame chain, with or without the GIL (extensions release it around driver calls), never calling into the
 * interpreter but for PyCode_Addr2Line on a new stack; see doc/python-stacks.md for why this is safe.
 *
 * stacks.c appends a stack's Python frames to its native return addresses as extra words of the same
 * deduplication key (ct_pystack_append), and writes them as a CT_REC_PYSTACK after the CT_REC_STACK of a
 * new stack (ct_pystack_write).  Nothing here knows CUDA. */
#ifndef CT_RECORDER_PYSTACK_H
#define CT_RECORDER_PYSTACK_H

#include <stdint.h>

#include "recorder/settings.h"

/* Most words ct_pystack_append adds: a frame each, and a last word that counts them. */
#define CT_PY_WORDS (CT_MAX_STACK_DEPTH + 1)

/* Nonzero once Python frames are being captured (a plain load on every stack capture). */
extern int ct_py_on;

int ct_pystack_append_(void **out);

/* Append the calling thread's Python frames, as key words, at out (room for CT_PY_WORDS); returns the
 * number of words, 0 when the thread runs no Python code (then the key is the native stack alone). */
static inline int ct_pystack_append(void **out)
{
    return __builtin_expect(ct_py_on, 0) ? ct_pystack_append_(out) : 0;
}

/* Queue the CT_REC_PYSTACK of new stack `id` from its Python words, placing each frame among the `nnative`
 * native frames written for it.  Call it on the thread that captured the stack, during the same call (the
 * frames' code objects are then alive).  0, or -1 when out of memory. */
int ct_pystack_write(uint32_t id, void *const *words, int nwords, const uint64_t *native, int nnative);

/* Turn Python frames on when this process runs a supported CPython (recorder start, stacks on); `depth`
 * (1..CT_MAX_STACK_DEPTH, CUDATRACE_STACK_DEPTH) is the most frames kept.  A no-op in any other process. */
void ct_pystack_start(unsigned depth);

/* Fork: held across fork() where it can be (forklock.h), so that the child gets a consistent code-object cache; 1 when taken.  After
 * fork: in the parent given back if taken, in the child made anew. */
int ct_pystack_fork_lock(void);
void ct_pystack_fork_unlock(int taken, int child);

#endif
