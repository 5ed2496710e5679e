/* The GPU records (format 5) as every reader of traces sees them: what the decoder (decoder.h) makes of a
 * CT_REC_GPU and a CT_REC_GPU_INFO.  Their own header, like call.h, so that code that only uses them (the
 * report) needs nothing that decodes. */
#ifndef CT_FORMAT_GPU_H
#define CT_FORMAT_GPU_H

#include <stdint.h>

/* The device's side of one timed call.  Times are CLOCK_MONOTONIC ns of the file's clock, as a call's once
 * decoded (never ticks: the writer converts them itself). */
struct ct_gpu_span {
    uint64_t seq;        /* the call's sequence number: joins the span to its call within the file */
    uint64_t start_ns, end_ns; /* end_ns >= start_ns */
    uint64_t stream;     /* the stream the events were recorded on */
    uint32_t tid;        /* the calling thread */
    int32_t device;      /* the context's device ordinal, -1 if not known */
    uint16_t api_id;
    uint8_t family;      /* CT_FAM_LAUNCH or CT_FAM_COPY: which group below is filled */
    uint8_t flags;       /* CT_GPU_SPAN_* */
    /* CT_FAM_LAUNCH */
    uint32_t name_id, launch_kind, grid[3], block[3];
    /* CT_FAM_COPY */
    uint64_t bytes;
    uint32_t copy_flags;
    uint16_t src_kind, dst_kind;
};

/* How calls were chosen for GPU timing and what could not be timed (the last record of a file holds). */
struct ct_gpu_info {
    uint32_t mode;       /* enum ct_gpu_time_mode */
    uint32_t sample_n, sample_k;
    int final;           /* the counts are the process's totals (else it ended before writing them) */
    uint64_t timed, not_completed, untimed_pool, untimed_refused, untimed_capture;
    /* Format 8 (before: source events, or none with mode off; the rest 0): */
    uint32_t source;     /* enum ct_gpu_source */
    uint32_t why;        /* enum ct_gpu_why */
    uint32_t request;    /* enum ct_gpu_request */
    uint64_t source_ns, no_call, dropped;
};

#endif
