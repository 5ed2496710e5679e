/* Call stacks of traced calls (CUDATRACE_STACKS): captured with libunwind's local fast path, deduplicated in
 * a table so each distinct stack is written once (CT_REC_STACK, through the meta queue so it is never lost)
 * and a call record carries only its id.  The tracer's, the driver's and the CUDA runtime's own frames are
 * trimmed from the top, so the first frame is where the program or its framework called.  Symbolization is
 * the report's job: the module map (modules.h) is written alongside. */
#ifndef CT_RECORDER_STACKS_H
#define CT_RECORDER_STACKS_H

#include <stdint.h>

#include "recorder/hot.h"

/* Bit (1 << enum ct_family) set for each family whose calls get a stack; 0 until the recorder starts with
 * stacks on.  Read on every traced call: a plain load. */
#define ct_stack_families (ct_hot.stack_families) /* hot.h */

/* The id of the calling thread's current stack (>= 1), written the first time it is seen; 0 when it cannot
 * be had (no memory, the table is full, the unwinder failed). */
uint32_t ct_stack_capture(void);

/* Do calls of this family get a stack? */
static inline int ct_stack_wanted(unsigned family)
{
    return __builtin_expect(ct_stack_families >> family & 1u, 0);
}

/* What a trampoline stores in ct_rec_call.stack_id: 0 unless stacks are on for the call's family. */
static inline uint32_t ct_stack_id(unsigned family)
{
    return ct_stack_wanted(family) ? ct_stack_capture() : 0;
}

/* Turn stacks on (recorder start): mode is enum ct_stack_mode, depth the frames kept.  Writes the module map.
 * Returns the file header's feature bits for stacks (CT_FEAT_STACKS, or 0 when off or unavailable). */
unsigned ct_stack_start(int mode, unsigned depth);

/* Fork: held across fork() where it can be (forklock.h), so that the child gets a consistent stack table; 1 when taken.  After
 * fork: in the parent given back if taken, in the child made anew. */
int ct_stack_fork_lock(void);
void ct_stack_fork_unlock(int taken, int child);

#endif
