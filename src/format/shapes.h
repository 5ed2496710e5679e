/* The reader's side of launch shapes (format.h, CT_REC_LAUNCH_REPEAT and CT_REC_LAUNCH_SHORT): each thread's
 * CT_LAUNCH_SHAPES slots, filled from the call records that name a slot, and what a short repeat leaves out
 * (the thread's last sequence number and call time, each slot's api and last launch time), so that a repeat
 * of either size, and a short call (CT_REC_CALL_SHORT), becomes its full call record again.  Times here are
 * the file's own (ticks after a CT_REC_CLOCK): the decoder (decoder.c), its only user, notes and expands
 * records before it converts them. */
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
/* A checked CT_REC_CALL (followed by its payload): the thread's last sequence number, and the slot it fills
 * if it names one.  0, or -1 when out of memory. */
int ct_shapes_note(struct ct_shapes *s, const struct ct_rec_call *c);
/* Turn a checked CT_REC_LAUNCH_REPEAT or CT_REC_LAUNCH_SHORT into its full call record in *out, and note it.
 * Returns 1; 0 when the slot's payload is not known (never written, or its newest payload was lost; s may
 * be NULL): then *out is the call with a zeroed payload whose kind is 0, which reports show as a launch of
 * unknown kind; -1 when out of memory (*out as for 0).  A short repeat whose slot has no launch before it
 * counts its time from its thread's last call, and with none from `base` (a damaged file: pass the current
 * clock's base tick, or the file's start). */
int ct_shapes_expand(struct ct_shapes *s, const struct ct_rec_hdr *h, uint64_t base, struct ct_launch_call *out);
/* Turn a checked CT_REC_CALL_SHORT into its full call record in *out (no payload), and note it: its seq and
 * t0 count from its thread's last call record, and with none (a damaged file) from `base` as above.  0, or
 * -1 when out of memory (*out is then the call with seq 0 and its time counted from `base`). */
int ct_shapes_expand_call(struct ct_shapes *s, const struct ct_rec_call_short *sh, uint64_t base,
                          struct ct_rec_call *out);

#endif
