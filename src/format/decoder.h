/* The one place that turns trace records into the calls they stand for.
 *
 * A decoder holds what a record of one thread may leave to the records before it: each thread's launch
 * shapes and last call (shapes.h), the clock in effect (format.h, CT_REC_CLOCK) and the file's start.
 * ct_decode takes the records of a file in the order each thread wrote them (every record, or only one
 * thread's with the clock of each run set by ct_decoder_use_clock, as the merge does) and gives back each
 * call, launch repeat or short repeat as a full call with its times in CLOCK_MONOTONIC ns.  The sequential
 * reader (reader.h) and the time-ordered merge (merge.h) both decode through it; nothing else in the
 * project knows a repeat or a tick.  The GPU records (format 5) are decoded here too: the sequential reader
 * hands them out decoded (ct_reader_gpu_span), for readers to collect in their own pass (the merge gives
 * calls only). */
#ifndef CT_FORMAT_DECODER_H
#define CT_FORMAT_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "format/call.h"
#include "format/gpu.h"

struct ct_decoder;

/* start_ns: the file header's start_mono_ns, the base of a short repeat that has nothing before it. */
struct ct_decoder *ct_decoder_new(uint64_t start_ns);
void ct_decoder_free(struct ct_decoder *d);
/* Forget every thread's shapes, the clock and the counts (a reader back at the first record). */
void ct_decoder_reset(struct ct_decoder *d);
/* The clock that converts the times of the records that follow (NULL: they are ns already).  ct_decode
 * sets it itself from a CT_REC_CLOCK; a reader that skips those (the merge's per-thread cursors) sets the
 * clock of each run. */
void ct_decoder_use_clock(struct ct_decoder *d, const struct ct_rec_clock *c);

enum ct_decoded {
    CT_DECODED_NOMEM = -1, /* out of memory for the shapes: *out holds the call, its payload unknown */
    CT_DECODED_OTHER = 0,  /* not a call: a CT_REC_CLOCK (now in effect) or a record to take as it is */
    CT_DECODED_CALL = 1,   /* *out holds the call */
};
/* Decode one checked record (format/record.h, ct_rec_check). */
enum ct_decoded ct_decode(struct ct_decoder *d, const struct ct_rec_hdr *h, struct ct_call *out);

/* A checked CT_REC_GPU or CT_REC_GPU_INFO record as readers see it (gpu.h): 1, or 0 (*out untouched) for a
 * record of another type.  They need no decoder state: their times are ns already. */
int ct_decode_gpu(const struct ct_rec_hdr *h, struct ct_gpu_span *out);
int ct_decode_gpu_info(const struct ct_rec_hdr *h, struct ct_gpu_info *out);

/* Launch repeats decoded so far whose payload was not known (the record that defined it was lost to a
 * write error): they came back as launches of kind 0, never with an older payload. */
uint64_t ct_decoder_unknown_shapes(const struct ct_decoder *d);

#endif
