/* The recorder: the only way the rest of libcudatrace.so puts records into the trace.
 *
 * Hot path (a trampoline):
 *     uint64_t t0 = ct_now();
 *     CUresult r = real(...);
 *     uint64_t t1 = ct_now();
 *     struct ct_rec_call *c = ct_rec_call_begin(sizeof *c + sizeof(struct ct_pl_launch), api, CT_FAM_LAUNCH, ...);
 *     if (c) { ...fill the payload after c...; ct_rec_commit(c); }
 * These take no lock, allocate nothing and make no system call once the thread's buffer exists (its first
 * call allocates it).  When the buffer is full the record is counted as lost and NULL returned.
 */
#ifndef CUDATRACE_RECORDER_H
#define CUDATRACE_RECORDER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "preload/clock.h"
#include "preload/ring.h"

/* One row of the generated variant table (scripts/gen-wrappers.py writes it; see variants.h). */
struct ct_variant {
    const char *name;    /* "cuMemAlloc": the function as users write it */
    const char *symbol;  /* "cuMemAlloc_v2": the exported symbol of this exact variant */
    uint32_t version;    /* cudaVersion that introduced it (3020) */
    uint16_t vflags;     /* CT_VARIANT_PTSZ / CT_VARIANT_PTDS */
    uint16_t family;     /* enum ct_family */
};

/* The table the API records of every trace are written from (the generated one in the library; a test may
 * link its own).  api_id in call records is the index into it. */
extern const struct ct_variant ct_variants[];
extern const unsigned ct_variant_count;

/* Reserve a record of `size` bytes (multiple of 8) in the calling thread's buffer; NULL when tracing is
 * off, shut down, or the buffer is full (then the record is counted lost). */
void *ct_rec_begin(size_t size);
/* The calling thread's buffer (NULL before its first record).  initial-exec: the library is preloaded, so
 * its TLS is static and a read is one %fs-relative load. */
extern __thread struct ct_ring *ct_rec_ring __attribute__((tls_model("initial-exec")));

/* Publish the record reserved by the last ct_rec_begin of this thread. */
static inline void ct_rec_commit(void *rec)
{
    (void)rec;
    ct_ring_commit(ct_rec_ring);
}

/* Fill the common part of a call record reserved with ct_rec_begin(size): header, api, times (t0, t1 from
 * ct_now(): ticks, which the drain turns into ns), result, the next call sequence number of this process. */
void ct_rec_fill_call(struct ct_rec_call *c, size_t size, uint16_t api_id, uint8_t payload, int32_t result,
                      uint64_t t0, uint64_t t1);

/* ct_rec_begin and ct_rec_fill_call in one call: the trampolines' way in (one call, not two, on the hot
 * path).  The payload, if any, follows the returned record; its stack_id is 0. */
struct ct_rec_call *ct_rec_call_begin(size_t size, uint16_t api_id, uint8_t payload, int32_t result, uint64_t t0,
                                      uint64_t t1);

/* The recorder's state (recorder.c; lifecycle.c moves it). */
enum ct_rec_state {
    CT_ST_UNINIT = 0, /* not started (or the child of a fork, not restarted yet) */
    CT_ST_ON,         /* recording */
    CT_ST_OFF,        /* could not start: the program runs untraced */
    CT_ST_DONE,       /* file closed */
};
extern _Atomic int ct_state;

/* Would a record be kept now (tracing on, or not started yet: the first record starts it)?  For callers
 * that build a record's contents before they reserve it: a launch trampoline decodes into a local payload. */
static inline int ct_rec_wanted(void)
{
    int st = atomic_load_explicit(&ct_state, memory_order_relaxed);
    return st == CT_ST_UNINIT || st == CT_ST_ON;
}

/* Record a launch-family call whose decoded payload is *pl: as a repeat (16 or 32 bytes) when it
 * succeeded, has no stack and the thread's slot for this function holds the same payload, else as the full
 * call record, which then fills the slot (format.h, launch shapes).  name_gen: the generation of kernel
 * names (kernel_names.h) as read before the payload's name was looked up; the slot keeps it. */
void ct_rec_launch(uint16_t api_id, int32_t result, uint64_t t0, uint64_t t1, const struct ct_pl_launch *pl,
                   uint32_t stack_id, uint32_t name_gen);
/* cuLaunchKernel's shortcut, ct_rec_launch_kernel_again, is inline: recorder_hot.h. */

/* Intern a string (kernel or thread name): returns its id (>= 1), writing a CT_REC_STRING the first time.
 * Not for the per-call path: callers cache the id (e.g. per CUfunction). Returns 0 if tracing is off. */
uint32_t ct_rec_intern(enum ct_str_kind kind, const char *s);

/* Note that a pointer for `symbol` was handed back untraced (counted, written as CT_REC_UNTRACED). */
void ct_rec_untraced(const char *symbol);

/* Driver metadata, written once known (the interposition layer calls these after cuInit succeeds). */
void ct_rec_driver(int driver_version, int device_count);
void ct_rec_device(int ordinal, const char *name, const uint8_t uuid[16], uint64_t total_mem);

/* Is tracing on (configuration valid, output file open or openable)? Cheap. */
int ct_rec_enabled(void);

/* Start the recorder (idempotent, thread-safe): read CUDATRACE_* configuration, open the output file,
 * start the writer, register the exit/fork/signal handlers.  Called lazily by ct_rec_begin too. */
void ct_rec_init(void);
/* capture.c, before tracing starts: only the calls of capture ranges will be recorded (the file's header
 * says so: CT_FEAT_CAPTURE_RANGES). */
void ct_rec_ranges_only(void);
/* Flush everything and close the file (exit path; also before exec). Idempotent. */
void ct_rec_shutdown(void);
/* Flush what is buffered now, keep tracing (before exec, on demand). */
void ct_rec_flush(void);

#endif
