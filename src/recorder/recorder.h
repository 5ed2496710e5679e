/* The recorder: the only way the rest of libcudatrace.so puts records into the trace.
 *
 * A trampoline of a call without a payload, or of an allocation, free or copy (wrappers.c, generated):
 *     uint64_t t0 = ct_now();
 *     CUresult r = real(...);
 *     uint64_t t1 = ct_now();
 *     struct ct_rec_call *c = ct_rec_call_begin(sizeof *c + sizeof(struct ct_pl_copy), api, CT_FAM_COPY, r, t0, t1);
 *     if (c) { ...decode into the payload after c...; c->stack_id = ct_stack_id(CT_FAM_COPY); ct_rec_commit(c); }
 * A launch trampoline decodes into a payload on its stack and hands it to ct_rec_launch_again, then
 * ct_rec_launch (recorder_hot.h), which write a launch repeat or the full record.  Times stay ticks of the
 * record clock (clock.h): the file's CT_REC_CLOCK records tell readers how to make them ns.
 * None of this takes a lock, allocates or makes a system call once the thread's ring exists (its first
 * record makes it).  When the ring is full the record is counted as lost and NULL returned.
 *
 * Inside: record.c and recorder_hot.h (records), lifecycle.c (start, flush, shutdown, fork, signals),
 * rings.c, drain.c, writer.c, tracefile.c; each module's header says what it does. */
#ifndef CT_RECORDER_RECORDER_H
#define CT_RECORDER_RECORDER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "recorder/clock.h"
#include "recorder/rings.h"
#include "recorder/state.h"
#include "recorder/variants.h"

/* Reserve a record of `size` bytes (multiple of 8) in the calling thread's ring; NULL when tracing is off,
 * shut down, or the ring is full (then the record is counted lost). */
void *ct_rec_begin(size_t size);

/* Publish the record reserved by the last ct_rec_begin of this thread. */
static inline void ct_rec_commit(void *rec)
{
    (void)rec;
    ct_ring_commit(ct_rec_ring);
}

/* Fill the common part of a call record reserved with ct_rec_begin(size): header, api, times (t0, t1 from
 * ct_now(), in ticks), result, the next call sequence number of this process; stack_id 0. */
void ct_rec_fill_call(struct ct_rec_call *c, size_t size, uint16_t api_id, uint8_t payload, int32_t result,
                      uint64_t t0, uint64_t t1);

/* ct_rec_begin and ct_rec_fill_call in one call: the trampolines' way in (one call, not two, on the hot
 * path).  The payload, if any, follows the returned record. */
/* A call without payload that needs no stack: a short record (format.h, CT_REC_CALL_SHORT) where one can stand
 * for it, else a full one.  Nothing when the record is not kept. */
void ct_rec_plain(uint16_t api_id, int32_t result, uint64_t t0, uint64_t t1);
struct ct_rec_call *ct_rec_call_begin(size_t size, uint16_t api_id, uint8_t payload, int32_t result, uint64_t t0,
                                      uint64_t t1);

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
 * names (kernel_names.h) as read before the payload's name was looked up; the slot keeps it.  The
 * shortcut that runs before the name is looked up, ct_rec_launch_again, is inline: recorder_hot.h. */
void ct_rec_launch(uint16_t api_id, int32_t result, uint64_t t0, uint64_t t1, const struct ct_pl_launch *pl,
                   uint32_t stack_id, uint32_t name_gen);

/* Intern a string (kernel or thread name): returns its id (>= 1), writing a CT_REC_STRING the first time.
 * Not for the per-call path: callers cache the id (e.g. per CUfunction). Returns 0 if tracing is off. */
uint32_t ct_rec_intern(enum ct_str_kind kind, const char *s);

/* A traced call the calling thread made while it was inside the tracer (a signal handler's call that
 * interrupted a call's recording): not recorded, counted lost (CT_LOST_NESTED).  Async-signal-safe. */
void ct_rec_nested(void);

/* Note that a pointer for `symbol` was handed back untraced (written as CT_REC_UNTRACED). */
void ct_rec_untraced(const char *symbol);

/* Driver metadata, written once known (the interposition layer calls these after cuInit succeeds). */
void ct_rec_driver(int driver_version, int device_count);
void ct_rec_device(int ordinal, const char *name, const uint8_t uuid[16], uint64_t total_mem);

/* NVTX (annotate.c).  An event into the calling thread's ring (enum ct_nvtx_kind; its time is read here).
 * Lock-free, as a call record; the message's string id comes from ct_rec_intern (cached by the caller). */
void ct_rec_nvtx(unsigned kind, uint16_t domain, uint32_t name_id, uint64_t range_id, uint32_t category,
                 uint32_t color, unsigned flags);
/* The name of an NVTX domain or category (enum ct_nvtx_name_what), queued as a CT_REC_NVTX_NAME. */
void ct_rec_nvtx_name(unsigned what, uint16_t domain, uint32_t category, uint32_t name_id);
/* Thread `tid` is called `name` from now on (a rename, nvtxNameOsThread): a CT_REC_THREAD, when tracing is
 * on.  The name a thread has at its first record is written by the drain (rings.h). */
void ct_rec_thread_name(uint32_t tid, const char *name);

/* Is tracing on (configuration valid, output file open or openable)?  Starts the recorder if needed. */
int ct_rec_enabled(void);

/* lifecycle.c.  What the layer above lends the recorder (variants.h): once, before its first call into the
 * recorder; the first client attached stays. */
void ct_rec_attach(const struct ct_rec_client *c);
/* Start the recorder (idempotent, thread-safe): read CUDATRACE_* configuration, open the output file, start
 * the writer, register the exit/fork/signal handlers.  The first record calls it; nothing starts before a
 * client is attached. */
void ct_rec_init(void);
/* capture.c, before tracing starts: only the calls of capture ranges will be recorded (the file's header
 * says so: CT_FEAT_CAPTURE_RANGES, with CT_FEAT_CAPTURE_NVTX when `nvtx`: the ranges are NVTX ranges). */
void ct_rec_ranges_only(int nvtx);
/* Flush everything and close the file (exit path). Idempotent. */
void ct_rec_shutdown(void);
/* GPU time's last collection while the driver is still there (an atexit handler of the interposition layer
 * runs it, before the CUDA runtime's own): waits for the drain, collects with final set (recorder/gpu.h). */
void ct_rec_gpu_finish(void);
/* Write what is buffered now and keep tracing (exec_hooks.c, before an exec). */
void ct_rec_flush(void);

#endif
