/* The reader's side of launch shapes (format.h, CT_REC_LAUNCH_REPEAT): each thread's CT_LAUNCH_SHAPES slots,
 * filled from the call records that name a slot, so that a repeat becomes its full call record again. */
#ifndef CT_FORMAT_SHAPES_H
#define CT_FORMAT_SHAPES_H

#include <stdint.h>

#include "cudatrace/format.h"

/* A full launch call record: what a repeat turns back into. */
struct ct_launch_call {
    struct ct_rec_call c;
    struct ct_pl_launch pl;
};

struct ct_shapes;

struct ct_shapes *ct_shapes_new(void);
void ct_shapes_free(struct ct_shapes *s);
/* Forget every thread's slots (the reader rewound to the first record). */
void ct_shapes_clear(struct ct_shapes *s);
/* A checked CT_REC_CALL followed by its payload: if it fills a slot, remember the payload.  0, or -1 when out
 * of memory. */
int ct_shapes_note(struct ct_shapes *s, const struct ct_rec_call *c);
/* Turn a checked repeat into its full call record in *out.  Returns 1, or 0 when the slot's payload is not
 * known (never written, or its newest payload was lost; s may be NULL): then *out is the call with a zeroed
 * payload whose kind is 0, which reports show as a launch of unknown kind. */
int ct_shapes_expand(const struct ct_shapes *s, const struct ct_rec_launch_repeat *rep, struct ct_launch_call *out);

#endif
