/* Perfetto's native protobuf trace (perfetto_trace.proto holds the subset written): a process track per
 * traced process, a thread track per thread, a slice per call, a "device memory" counter per process; with
 * GPU spans (format 5) a track "GPU N" per device ordinal with a child track per stream, a slice per span and
 * a flow from each call to its span.  The layout follows the Chrome export (chrome.c); what differs
 * is how little each call costs:
 *
 *   - Each thread's packets form a sequence of their own, whose defaults name the thread's track and a
 *     clock of that sequence whose timestamps are deltas from the sequence's previous one (is_incremental):
 *     a call is two small packets, its begin and its end, with 1 to 3-byte times.
 *   - Names (API + kernel), categories and argument names are interned per sequence: a call carries iids.
 *   - The memory counter's value rides on the end of the allocation or free that changed it
 *     (extra_counter_values), not in a packet of its own.
 *   - GPU spans, which come in call order rather than time order, use absolute times on sequence 1, which
 *     also carries the track descriptors.
 *
 * Output is streamed, a packet at a time; memory is the per-thread intern tables and the GPU tracks. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/enum_names.h"
#include "report/model/args.h"
#include "report/model/display_names.h"
#include "report/export/export.h"
#include "report/model/memory.h"
#include "report/export/pb.h"
#include "report/export/perfetto_fields.h"
#include "report/model/frames.h"
#include "report/symbols/symbolize.h"

enum { SLICE_BEGIN = 1, SLICE_END = 2 };       /* TrackEvent.Type */
enum { CLOCK_BOOTTIME = 6, CLOCK_DELTA = 64 }; /* BuiltinClocks; the first clock a sequence may define */
enum { SEQ_CLEARED = 1 };                      /* SEQ_INCREMENTAL_STATE_CLEARED */
enum { UNIT_SIZE_BYTES = 3 };
enum { GLOBAL_SEQ = 1 };                       /* descriptors and GPU slices */
enum { ARG_BYTES = 1, ARG_RESULT, ARG_SEQ, ARG_STACK }; /* debug annotation name iids, the same on every sequence */
static const char *const arg_names[] = {NULL, "bytes", "result", "seq", "stack"};
/* Category iids: the same on every sequence too.  Calls: cuda_api and their family; GPU slices: theirs. */
enum { CAT_API = 1, CAT_FAMILY = 1 /* + family */, CAT_GPU_KERNEL = 6 /* + enum rp_gpu_work */, NCATS = CAT_GPU_KERNEL + 3 };

/* A packet sequence: a thread's calls, or the global one. */
struct seq {
    uint32_t id;
    uint64_t track;      /* the thread's track */
    uint64_t last_ts;    /* the delta clock's value */
    int started;
    struct rp_u64map names;     /* (api, kernel) -> iid: a thread's call names */
    struct rp_strmap gpu_names; /* name -> iid - 1: the global sequence's GPU slice names */
    uint64_t nnames;
    unsigned cats, args;    /* bit i: iid i interned on this sequence */
};

struct px {
    FILE *out;
    struct rp_trace *t;
    struct pb b;
    size_t packet;          /* where the current packet's message starts */
    struct seq *seqs;       /* [0] global, then each file's threads */
    size_t *first_seq;      /* per file: the index of its first thread's sequence */
    uint64_t *mem_track; /* per file */
    uint64_t next_uuid, flows;
    struct rp_u64map gpu_devices, gpu_streams; /* device -> track; (stream, file and device) -> track */
    struct rp_kernel_names k;
    int failed;
};

static void packet_begin(struct px *x, const struct seq *s)
{
    x->b.out.n = 0;
    x->packet = pb_begin(&x->b, PF_Trace_packet);
    pb_uint(&x->b, PF_TracePacket_trusted_packet_sequence_id, s->id);
}

static void packet_end(struct px *x)
{
    pb_end(&x->b, x->packet);
    if (x->b.out.oom || fwrite(x->b.out.p, 1, x->b.out.n, x->out) != x->b.out.n)
        x->failed = 1;
}

/* The first packet of a sequence: its state starts here; a thread's also sets its defaults (track, clock). */
static void seq_start(struct px *x, struct seq *s)
{
    s->started = 1;
    packet_begin(x, s);
    pb_uint(&x->b, PF_TracePacket_sequence_flags, SEQ_CLEARED);
    if (s->track) {
        size_t d = pb_begin(&x->b, PF_TracePacket_trace_packet_defaults);
        pb_uint(&x->b, PF_TracePacketDefaults_timestamp_clock_id, CLOCK_DELTA);
        size_t e = pb_begin(&x->b, PF_TracePacketDefaults_track_event_defaults);
        pb_uint(&x->b, PF_TrackEventDefaults_track_uuid, s->track);
        pb_end(&x->b, e);
        pb_end(&x->b, d);
        /* both clocks read 0 at once: the delta clock is the trace clock, in steps */
        size_t c = pb_begin(&x->b, PF_TracePacket_clock_snapshot);
        size_t k = pb_begin(&x->b, PF_ClockSnapshot_clocks);
        pb_uint(&x->b, PF_ClockSnapshot_Clock_clock_id, CLOCK_BOOTTIME);
        pb_uint(&x->b, PF_ClockSnapshot_Clock_timestamp, 0);
        pb_end(&x->b, k);
        k = pb_begin(&x->b, PF_ClockSnapshot_clocks);
        pb_uint(&x->b, PF_ClockSnapshot_Clock_clock_id, CLOCK_DELTA);
        pb_uint(&x->b, PF_ClockSnapshot_Clock_timestamp, 0);
        pb_uint(&x->b, PF_ClockSnapshot_Clock_is_incremental, 1);
        pb_end(&x->b, k);
        pb_end(&x->b, c);
    }
    packet_end(x);
}

/* A packet of sequence s at `ts` ns since the trace start.  A thread's sequence writes the delta from its
 * previous time; a time before it (calls of one thread overlapping, which a signal handler's can) and the
 * global sequence's are absolute. */
static void event_begin(struct px *x, struct seq *s, int64_t ts, int type, size_t *te)
{
    uint64_t t = ts > 0 ? (uint64_t)ts : 0;
    if (!s->started)
        seq_start(x, s);
    packet_begin(x, s);
    if (s->track && t >= s->last_ts) {
        pb_uint(&x->b, PF_TracePacket_timestamp, t - s->last_ts);
        s->last_ts = t;
    } else {
        pb_uint(&x->b, PF_TracePacket_timestamp, t);
        if (s->track)
            pb_uint(&x->b, PF_TracePacket_timestamp_clock_id, CLOCK_BOOTTIME);
    }
    *te = pb_begin(&x->b, PF_TracePacket_track_event);
    pb_uint(&x->b, PF_TrackEvent_type, (uint64_t)type);
}

/* Interned entries a packet defines, written after its track event. */
struct news {
    const char *name; /* the event name, when new */
    uint64_t name_iid;
    unsigned cats, args;
};

static const char *cat_name(unsigned iid)
{
    static const char *const gpu[] = {"gpu_kernel", "gpu_graph", "gpu_copy"}; /* "gpu_" + rp_gpu_work_kinds */
    return iid == CAT_API ? "cuda_api" : iid < CAT_GPU_KERNEL ? ct_name_family(iid - CAT_FAMILY) : gpu[iid - CAT_GPU_KERNEL];
}

static void cat(struct px *x, struct seq *s, struct news *n, unsigned iid)
{
    pb_uint(&x->b, PF_TrackEvent_category_iids, iid);
    if (!(s->cats & 1u << iid))
        n->cats |= 1u << iid;
    s->cats |= 1u << iid;
}

static void arg_begin(struct px *x, struct seq *s, struct news *n, unsigned iid, size_t *a)
{
    *a = pb_begin(&x->b, PF_TrackEvent_debug_annotations);
    pb_uint(&x->b, PF_DebugAnnotation_name_iid, iid);
    if (!(s->args & 1u << iid))
        n->args |= 1u << iid;
    s->args |= 1u << iid;
}

static void arg_uint(struct px *x, struct seq *s, struct news *n, unsigned iid, uint64_t v)
{
    size_t a;
    arg_begin(x, s, n, iid, &a);
    pb_uint(&x->b, PF_DebugAnnotation_uint_value, v);
    pb_end(&x->b, a);
}

static void arg_string(struct px *x, struct seq *s, struct news *n, unsigned iid, const char *v)
{
    size_t a;
    arg_begin(x, s, n, iid, &a);
    pb_string(&x->b, PF_DebugAnnotation_string_value, v);
    pb_end(&x->b, a);
}

static void interned(struct px *x, const struct news *n)
{
    if (!n->name && !n->cats && !n->args)
        return;
    size_t d = pb_begin(&x->b, PF_TracePacket_interned_data);
    for (unsigned i = 1; i < NCATS; i++)
        if (n->cats & 1u << i) {
            size_t e = pb_begin(&x->b, PF_InternedData_event_categories);
            pb_uint(&x->b, PF_EventCategory_iid, i);
            pb_string(&x->b, PF_EventCategory_name, cat_name(i));
            pb_end(&x->b, e);
        }
    if (n->name) {
        size_t e = pb_begin(&x->b, PF_InternedData_event_names);
        pb_uint(&x->b, PF_EventName_iid, n->name_iid);
        pb_string(&x->b, PF_EventName_name, n->name);
        pb_end(&x->b, e);
    }
    for (unsigned i = 1; i <= ARG_STACK; i++)
        if (n->args & 1u << i) {
            size_t e = pb_begin(&x->b, PF_InternedData_debug_annotation_names);
            pb_uint(&x->b, PF_DebugAnnotationName_iid, i);
            pb_string(&x->b, PF_DebugAnnotationName_name, arg_names[i]);
            pb_end(&x->b, e);
        }
    pb_end(&x->b, d);
}

/* The end of an event's packet: its track event, the interned entries it defines (n may be NULL). */
static void event_end(struct px *x, size_t te, const struct news *n)
{
    pb_end(&x->b, te);
    if (n)
        interned(x, n);
    packet_end(x);
}

static void track(struct px *x, uint64_t uuid, uint64_t parent, const char *name)
{
    packet_begin(x, &x->seqs[0]);
    size_t d = pb_begin(&x->b, PF_TracePacket_track_descriptor);
    pb_uint(&x->b, PF_TrackDescriptor_uuid, uuid);
    if (parent)
        pb_uint(&x->b, PF_TrackDescriptor_parent_uuid, parent);
    pb_string(&x->b, PF_TrackDescriptor_name, name);
    pb_end(&x->b, d);
    packet_end(x);
}

/* The process, counter and thread tracks of every file, and the sequences of its threads. */
static void descriptors(struct px *x)
{
    struct rp_trace *t = x->t;
    for (size_t i = 0, q = 1; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        const uint64_t proc = ++x->next_uuid;
        packet_begin(x, &x->seqs[0]);
        size_t d = pb_begin(&x->b, PF_TracePacket_track_descriptor);
        pb_uint(&x->b, PF_TrackDescriptor_uuid, proc);
        size_t p = pb_begin(&x->b, PF_TrackDescriptor_process);
        pb_int(&x->b, PF_ProcessDescriptor_pid, (int32_t)f->hdr.pid);
        pb_string(&x->b, PF_ProcessDescriptor_process_name, *f->cmdline ? f->cmdline : f->path);
        pb_end(&x->b, p);
        pb_end(&x->b, d);
        packet_end(x);

        x->mem_track[i] = ++x->next_uuid;
        packet_begin(x, &x->seqs[0]);
        d = pb_begin(&x->b, PF_TracePacket_track_descriptor);
        pb_uint(&x->b, PF_TrackDescriptor_uuid, x->mem_track[i]);
        pb_uint(&x->b, PF_TrackDescriptor_parent_uuid, proc);
        pb_string(&x->b, PF_TrackDescriptor_name, "device memory");
        size_t c = pb_begin(&x->b, PF_TrackDescriptor_counter);
        pb_uint(&x->b, PF_CounterDescriptor_unit, UNIT_SIZE_BYTES);
        pb_end(&x->b, c);
        pb_end(&x->b, d);
        packet_end(x);

        x->first_seq[i] = q;
        for (size_t j = 0; j < f->nthreads; j++, q++) {
            const struct rp_thread *th = &f->threads[j];
            struct seq *s = &x->seqs[q];
            s->id = (uint32_t)(q + 1);
            s->track = ++x->next_uuid;
            packet_begin(x, &x->seqs[0]);
            d = pb_begin(&x->b, PF_TracePacket_track_descriptor);
            pb_uint(&x->b, PF_TrackDescriptor_uuid, s->track);
            size_t td = pb_begin(&x->b, PF_TrackDescriptor_thread);
            pb_int(&x->b, PF_ThreadDescriptor_pid, (int32_t)f->hdr.pid);
            pb_int(&x->b, PF_ThreadDescriptor_tid, (int32_t)th->tid);
            const char *tn = rp_file_string(f, th->name_id);
            if (tn)
                pb_string(&x->b, PF_ThreadDescriptor_thread_name, tn);
            pb_end(&x->b, td);
            pb_end(&x->b, d);
            packet_end(x);
        }
    }
}

/* The iid of a call's name on its sequence (n->name set when new); 0 when out of memory. */
static uint64_t call_name(struct px *x, struct seq *s, const struct rp_call *c, struct news *n, char *buf, size_t size)
{
    const struct ct_pl_launch *l = &c->call->pl.launch;
    const int launch = c->call->family == CT_FAM_LAUNCH;
    const uint64_t k2 = launch ? 1ull << 40 | (uint64_t)(l->kind & 0xff) << 32 | l->name_id : 0;
    struct rp_u64map_entry *e = rp_u64map_get(&s->names, c->call->c.api_id, k2);
    if (e)
        return e->v1;
    rp_call_timeline_name(&x->k, c, buf, size);
    if (!rp_u64map_put(&s->names, c->call->c.api_id, k2, ++s->nnames, 0))
        return 0;
    n->name = buf;
    return n->name_iid = s->nnames;
}

/* The track of a span's stream under its device's track, both described the first time; 0 when out of
 * memory. */
static uint64_t gpu_track(struct px *x, const struct rp_call *c)
{
    const int32_t dev = c->gpu->device;
    const uint64_t key = (uint64_t)c->file_index << 32 | (uint32_t)dev;
    struct rp_u64map_entry *e = rp_u64map_get(&x->gpu_streams, c->gpu->stream, key);
    if (e)
        return e->v1;
    struct rp_u64map_entry *d = rp_u64map_get(&x->gpu_devices, (uint32_t)dev, 0);
    char name[64];
    if (!d) {
        if (!(d = rp_u64map_put(&x->gpu_devices, (uint32_t)dev, 0, ++x->next_uuid, 0)))
            return 0;
        track(x, d->v1, 0, rp_gpu_device_label(dev, name, sizeof name));
    }
    const uint64_t parent = d->v1, uuid = ++x->next_uuid;
    if (!rp_u64map_put(&x->gpu_streams, c->gpu->stream, key, uuid, 0))
        return 0;
    track(x, uuid, parent, rp_gpu_stream_label(x->t, c, name, sizeof name));
    return uuid;
}

/* Span i of a call: its slice on its stream's track, ending the flow `flow` from its call.  -1 when out of
 * memory. */
static int gpu_slice(struct px *x, const struct rp_call *c, size_t i, uint64_t flow)
{
    struct seq *s = &x->seqs[0];
    char buf[64];
    const char *name = rp_gpu_span_name(&x->k, c, i, buf, sizeof buf);
    const int64_t t0 = c->ngpu > 1 ? (int64_t)c->gpu[i].start_ns + c->file->clock_offset : c->gpu_t0;
    const int64_t t1 = c->ngpu > 1 ? (int64_t)c->gpu[i].end_ns + c->file->clock_offset : c->gpu_t1;
    const uint64_t uuid = gpu_track(x, c);
    if (!name || !uuid)
        return -1;
    size_t iid = rp_strmap_get(&s->gpu_names, name);
    struct news n = {0};
    if (iid == (size_t)-1) {
        if (rp_strmap_put(&s->gpu_names, name, iid = (size_t)s->nnames++) < 0)
            return -1;
        n.name = name;
        n.name_iid = iid + 1;
    }
    size_t te;
    event_begin(x, s, t0 - x->t->start_ns, SLICE_BEGIN, &te);
    pb_uint(&x->b, PF_TrackEvent_track_uuid, uuid);
    pb_uint(&x->b, PF_TrackEvent_name_iid, iid + 1);
    cat(x, s, &n, CAT_GPU_KERNEL + rp_gpu_span_kind(c, i));
    arg_uint(x, s, &n, ARG_SEQ, c->call->c.seq);
    if (i == 0)
        pb_fixed64(&x->b, PF_TrackEvent_terminating_flow_ids, flow);
    event_end(x, te, &n);
    event_begin(x, s, t1 - x->t->start_ns, SLICE_END, &te);
    pb_uint(&x->b, PF_TrackEvent_track_uuid, uuid);
    event_end(x, te, NULL);
    return 0;
}

/* A call: its slice on its thread's sequence, with the live device bytes at its end when it changed them.
 * -1 when out of memory. */
static int call_slice(struct px *x, const struct rp_call *c, struct rp_memtrack *mt)
{
    struct seq *s = &x->seqs[x->first_seq[c->file_index] + (size_t)(c->thread - c->file->threads)];
    char buf[512];
    struct news n = {0};
    const uint64_t iid = call_name(x, s, c, &n, buf, sizeof buf);
    if (!iid)
        return -1;
    size_t te;
    event_begin(x, s, c->t0 - x->t->start_ns, SLICE_BEGIN, &te);
    pb_uint(&x->b, PF_TrackEvent_name_iid, iid);
    cat(x, s, &n, CAT_API);
    if (c->call->family)
        cat(x, s, &n, CAT_FAMILY + c->call->family);
    if (c->call->family == CT_FAM_ALLOC)
        arg_uint(x, s, &n, ARG_BYTES, c->call->pl.alloc.bytes);
    else if (c->call->family == CT_FAM_COPY)
        arg_uint(x, s, &n, ARG_BYTES, c->call->pl.copy.bytes);
    if (c->call->c.result != 0) { /* CUDA_SUCCESS goes without saying */
        char rbuf[48];
        arg_string(x, s, &n, ARG_RESULT, rp_result_name(c->call->c.result, rbuf, sizeof rbuf));
    }
    const struct rp_stack *st = rp_stacktab_get(&c->file->stacks, c->call->c.stack_id);
    char *line = st && st->nframes ? rp_stack_line(st) : NULL; /* native and Python frames, " | " between */
    if (line) {
        arg_string(x, s, &n, ARG_STACK, line);
        free(line);
    }
    const uint64_t flow = c->gpu ? ++x->flows : 0;
    if (flow) {
        arg_uint(x, s, &n, ARG_SEQ, c->call->c.seq);
        pb_fixed64(&x->b, PF_TrackEvent_flow_ids, flow);
    }
    event_end(x, te, &n);

    event_begin(x, s, c->t1 - x->t->start_ns, SLICE_END, &te);
    if (rp_memtrack_call(mt, c)) {
        pb_uint(&x->b, PF_TrackEvent_extra_counter_track_uuids, x->mem_track[c->file_index]);
        pb_int(&x->b, PF_TrackEvent_extra_counter_values, (int64_t)mt->device.live_bytes);
    }
    event_end(x, te, NULL);
    int rc = 0;
    for (size_t i = 0; flow && i < c->ngpu; i++) /* a graph's kernels, copies and sets: each its slice */
        rc |= gpu_slice(x, c, i, flow);
    return rc;
}

int rp_export_perfetto(FILE *out, struct rp_trace *t)
{
    size_t nseqs = 1;
    for (size_t i = 0; i < t->nfiles; i++)
        nseqs += t->files[i].nthreads;
    struct px x = {.out = out, .t = t};
    struct rp_memtrack *mem = calloc(t->nfiles, sizeof *mem);
    x.seqs = calloc(nseqs, sizeof *x.seqs);
    x.first_seq = calloc(t->nfiles, sizeof *x.first_seq);
    x.mem_track = calloc(t->nfiles, sizeof *x.mem_track);
    struct rp_merge *m = mem && x.seqs && x.first_seq && x.mem_track ? rp_merge_begin(t) : NULL;
    int rc = m && rp_symbolize(t) == 0 ? 0 : -1;
    if (m && rc == 0) {
        x.seqs[0].id = GLOBAL_SEQ;
        seq_start(&x, &x.seqs[0]);
        descriptors(&x);
        for (const struct rp_call *c; !x.failed && (c = rp_merge_next(m));)
            if (call_slice(&x, c, &mem[c->file_index]) < 0 || mem[c->file_index].oom)
                rc = -1;
        if (rc == 0 && rp_merge_failed(m))
            rc = RP_EXIT_UNREADABLE;
    }
    if (x.failed && rc == 0) /* a write failed (rp_output_close says so) or the buffer ran out of memory */
        rc = x.b.out.oom ? -1 : 0;
    for (size_t i = 0; i < nseqs && x.seqs; i++) {
        rp_u64map_free(&x.seqs[i].names);
        rp_strmap_free(&x.seqs[i].gpu_names);
    }
    rp_memtracks_free(mem, t->nfiles);
    free(x.seqs);
    free(x.first_seq);
    free(x.mem_track);
    rp_u64map_free(&x.gpu_devices);
    rp_u64map_free(&x.gpu_streams);
    rp_kernel_names_free(&x.k);
    pb_free(&x.b);
    rp_merge_end(m);
    if (rc < 0)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    return rc;
}
