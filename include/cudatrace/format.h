/* cudatrace on-disk trace format: the one contract between the writer (libcudatrace.so) and every reader.
 *
 * A trace file is a fixed header followed by a stream of records.  Every record starts with a
 * struct ct_rec_hdr whose `size` is the whole record in bytes, a multiple of 8, so a reader can skip a record
 * type it does not know.  All integers are in the byte order of the writing host; `byte_order` in the file
 * header tells a reader whether it must swap (readers of this version refuse a foreign order).
 *
 * Records of one thread appear in the order that thread made them.  Records of different threads are
 * interleaved in blocks, so a reader sorts by time where it needs a global order.  A string (CT_REC_STRING)
 * is referenced by id; its definition may come after a record that uses it (another thread's block was
 * drained first), so readers resolve ids after reading, never while streaming.
 *
 * Changing any struct here means bumping CT_FORMAT_VERSION; tests/unit/test_format_layout.c pins offsets.
 */
#ifndef CT_CUDATRACE_FORMAT_H
#define CT_CUDATRACE_FORMAT_H

#include <stdint.h>

#define CT_MAGIC "CUDATRC\n"          /* 8 bytes, no terminating NUL stored */
#define CT_MAGIC_LEN 8
#define CT_FORMAT_VERSION 8u           /* independent of the package version; 2 added CT_REC_LAUNCH_REPEAT,
                                        * 3 CT_REC_CLOCK, 4 CT_REC_LAUNCH_SHORT, 5 CT_REC_GPU and
                                        * CT_REC_GPU_INFO, 6 CT_REC_NVTX, CT_REC_NVTX_NAME, CT_REC_RANK and
                                        * CT_REC_THREAD records written, 7 CT_REC_COUNTED, CT_REC_CALL_SHORT
                                        * and CT_REC_PYSTACK, 8 CT_REC_GPU flags and GPU time's source in
                                        * CT_REC_GPU_INFO */
#define CT_FORMAT_VERSION_MIN 1u       /* the oldest version readers still read (1: no repeats) */
#define CT_BYTE_ORDER_MARK 0x01020304u /* written natively */

/* Feature bits in ct_file_header.features. */
#define CT_FEAT_STACKS   (1u << 0) /* CT_REC_STACK / CT_REC_MODULE records may appear, stack_id is meaningful */
#define CT_FEAT_TIME_MONO (1u << 1) /* record times are on CLOCK_MONOTONIC (ns, or ticks: CT_REC_CLOCK) */
#define CT_FEAT_CAPTURE_RANGES (1u << 2) /* only the calls in capture ranges were recorded: cuProfilerStart..
                                         * cuProfilerStop, or with CT_FEAT_CAPTURE_NVTX an NVTX range */
#define CT_FEAT_CAPTURE_NVTX (1u << 3)   /* the capture ranges are those of an NVTX range (CUDATRACE_CAPTURE=nvtx:..) */
/* Which functions were counted, not timed (CT_REC_COUNTED): the default set of trivial queries, or a
 * CUDATRACE_APIS list.  Neither bit: every function was timed (CUDATRACE_APIS=all), or the file comes from a
 * format 7 tracer older than these bits, which counted only by a list. */
#define CT_FEAT_APIS_DEFAULT (1u << 4)
#define CT_FEAT_APIS_LIST (1u << 5)

/* The times a reader accepts, in ns: on CLOCK_MONOTONIC (the header's start, calls once converted, the END
 * record's end) 0 to CT_MONO_NS_MAX, 73 years of uptime; on CLOCK_REALTIME (the header's start) 0 to
 * CT_WALL_NS_MAX, the year 2116.  A file with a time outside is corrupt.  Within them, a reader that puts
 * files on one clock (a time plus its file's wall - mono) can subtract any two such times in int64_t. */
#define CT_MONO_NS_MAX ((INT64_C(1) << 61) - 1)
#define CT_WALL_NS_MAX ((INT64_C(1) << 62) - 1)

struct ct_file_header {
    char magic[CT_MAGIC_LEN];
    uint32_t format_version;
    uint32_t header_size;  /* sizeof(struct ct_file_header) of the writer; records start here */
    uint32_t byte_order;   /* CT_BYTE_ORDER_MARK */
    uint32_t features;     /* CT_FEAT_* */
    uint32_t pid;
    uint32_t ppid;
    int64_t start_wall_ns; /* CLOCK_REALTIME at start (0 to CT_WALL_NS_MAX) */
    int64_t start_mono_ns; /* CLOCK_MONOTONIC at the same moment: record times are on this clock (0 to CT_MONO_NS_MAX) */
    char tracer_version[16]; /* cudatrace package version, NUL padded */
}; /* 64 bytes */

/* Record types. */
enum ct_rec_type {
    CT_REC_PROCESS = 1,   /* process metadata: host name and command line */
    CT_REC_STRING = 2,    /* an interned string: kernel name, thread name, ... */
    CT_REC_API = 3,       /* one API variant: id -> function name, exported variant name, version */
    CT_REC_CALL = 4,      /* one driver call, optionally followed by a typed payload */
    CT_REC_LOST = 5,      /* records that could not be kept */
    CT_REC_DRIVER = 6,    /* driver version and device count, once known */
    CT_REC_DEVICE = 7,    /* one device */
    CT_REC_THREAD = 8,    /* a thread's name (string id) */
    CT_REC_UNTRACED = 9,  /* pointers handed back untouched because no trampoline matched */
    CT_REC_END = 10,      /* clean close: totals; absent if the process died */
    CT_REC_STACK = 11,    /* a deduplicated call stack (CT_FEAT_STACKS) */
    CT_REC_MODULE = 12,   /* a loaded module (path, load address, build id) for symbolization */
    CT_REC_LAUNCH_REPEAT = 13, /* a launch whose payload its thread wrote before (format 2) */
    CT_REC_CLOCK = 14,    /* how the call times that follow convert to ns (format 3) */
    CT_REC_LAUNCH_SHORT = 15, /* a launch repeat in 16 bytes (format 4) */
    CT_REC_GPU = 16,      /* what the device did for one timed call: a kernel or a copy (format 5) */
    CT_REC_GPU_INFO = 17, /* how calls were chosen for GPU timing, and what could not be timed (format 5) */
    CT_REC_NVTX = 18,     /* an NVTX event: range push/pop, start/end, mark (format 6) */
    CT_REC_NVTX_NAME = 19, /* the name of an NVTX domain or category (format 6) */
    CT_REC_RANK = 20,     /* the process's rank in a parallel job, from the launcher's variables (format 6) */
    CT_REC_PYSTACK = 21,  /* the Python frames of a call stack (format 7) */
    CT_REC_COUNTED = 23,  /* calls of one variant counted, not recorded (CUDATRACE_APIS; format 7) */
    CT_REC_CALL_SHORT = 24, /* a call without payload or stack in 16 bytes (format 7) */
};
#define CT_REC_TYPE_LAST CT_REC_CALL_SHORT

#define CT_REC_MARKER 0xC7u /* first byte of every record: a reader's cheap check against garbage */

struct ct_rec_hdr {
    uint8_t marker; /* CT_REC_MARKER */
    uint8_t type;   /* enum ct_rec_type */
    uint16_t size;  /* whole record, bytes, multiple of 8, >= 8 */
    uint32_t tid;   /* kernel thread id of the thread that wrote it (0 for process-wide records) */
}; /* 8 bytes */

/* CT_REC_PROCESS: followed by `host_len` bytes of host name, then `cmdline_len` bytes of command line
 * (arguments separated by NUL), then zero padding to a multiple of 8.  The command line is cut to fit. */
struct ct_rec_process {
    struct ct_rec_hdr h;
    uint16_t host_len;
    uint16_t cmdline_len;
    uint32_t argc;
}; /* 16 bytes + data */

/* String kinds (ct_rec_string.kind). */
enum ct_str_kind { CT_STR_KERNEL = 1, CT_STR_THREAD = 2, CT_STR_OTHER = 3,
                   CT_STR_NVTX = 4,   /* format 6: NVTX messages, domain and category names */
                   CT_STR_PYTHON = 5, /* format 7: Python file and function names */ };

/* CT_REC_STRING: followed by `len` bytes (no NUL) and zero padding. */
struct ct_rec_string {
    struct ct_rec_hdr h;
    uint32_t id; /* ids start at 1; 0 means "no string" */
    uint16_t kind;
    uint16_t len;
}; /* 16 bytes + data */

/* Variant flags (ct_rec_api.vflags). */
#define CT_VARIANT_PTSZ (1u << 0) /* per-thread default stream, _ptsz */
#define CT_VARIANT_PTDS (1u << 1) /* per-thread default stream, _ptds */

/* CT_REC_API: followed by `name_len` bytes of the function name as users write it ("cuMemAlloc"), then
 * `variant_len` bytes of the exported symbol of the variant ("cuMemAlloc_v2"), then padding. */
struct ct_rec_api {
    struct ct_rec_hdr h;
    uint16_t api_id;   /* ct_rec_call.api_id refers to this */
    uint16_t vflags;   /* CT_VARIANT_* */
    uint32_t version;  /* cudaVersion that introduced the variant, e.g. 3020 */
    uint16_t name_len;
    uint16_t variant_len;
    uint32_t family;   /* enum ct_family: which payload its calls carry */
}; /* 24 bytes + data */

/* Argument families that carry a decoded payload after struct ct_rec_call. */
enum ct_family {
    CT_FAM_NONE = 0,
    CT_FAM_ALLOC = 1,
    CT_FAM_FREE = 2,
    CT_FAM_LAUNCH = 3,
    CT_FAM_COPY = 4, /* copies and sets */
};

/* CT_REC_CALL: one driver call.  `payload` says which struct follows (enum ct_family; 0 = none). */
struct ct_rec_call {
    struct ct_rec_hdr h;
    uint16_t api_id;
    uint8_t payload;  /* enum ct_family of the struct that follows, 0 if none */
    uint8_t shape;    /* launches: the thread's shape slot (1..CT_LAUNCH_SHAPES) this payload now fills, 0 none */
    int32_t result;   /* CUresult */
    uint64_t seq;     /* per-process call sequence number (correlation id), from 1 */
    /* Before and after the call: CLOCK_MONOTONIC ns up to the file's first CT_REC_CLOCK, ticks of the clock
     * in effect after one (format 3; the names are format 1's).  Readers convert (CT_REC_CLOCK below). */
    uint64_t t0_ns;
    uint64_t t1_ns;
    uint32_t stack_id; /* 0 = no stack */
    uint32_t shape_gen; /* with `shape`: how many payloads that slot has held (wraps), 0 when shape is 0 */
}; /* 48 bytes */

/* Launch shapes.  Programs launch the same kernel with the same grid, block and stream over and over, and
 * launches are the calls they make by the hundred thousand: each thread keeps its last CT_LAUNCH_SHAPES launch
 * payloads in slots (chosen by the function handle), and a successful launch with no call stack whose payload
 * equals its slot's is written as a repeat (a 16-byte CT_REC_LAUNCH_SHORT where it can stand for the launch,
 * else a 32-byte CT_REC_LAUNCH_REPEAT) instead of a 112-byte call record.  A reader keeps the same slots per
 * thread, filling them from the CT_REC_CALL records that name one (`shape`), and turns each repeat back into
 * the full call record.  `shape_gen` tells a reader that missed a slot's newest payload (its record was lost
 * to a write error) that it does not know the shape: it must say so, never use the older payload.  A short
 * repeat carries no generation: it stands for the slot's newest payload, which a reader takes as unknown
 * from a long repeat of a generation it has not seen until the next record that names the slot.  (Nothing
 * reaches the file after a write error, so the writer's files never hold such a gap.) */
#define CT_LAUNCH_SHAPES 16

/* CT_REC_LAUNCH_REPEAT: a CT_REC_CALL of the launch family whose payload is slot `shape` of thread h.tid,
 * with result CUDA_SUCCESS and stack_id 0. */
struct ct_rec_launch_repeat {
    struct ct_rec_hdr h;
    uint16_t api_id;
    uint8_t shape;     /* 1..CT_LAUNCH_SHAPES */
    uint8_t shape_gen; /* low 8 bits of the slot's shape_gen */
    uint32_t dur_ns;   /* t1_ns - t0_ns, in the same units (longer calls are written in full) */
    uint64_t seq;
    uint64_t t0_ns;    /* ns or ticks, as ct_rec_call's */
}; /* 32 bytes */

/* CT_REC_LAUNCH_SHORT: the same as a CT_REC_LAUNCH_REPEAT, in half the bytes, for a launch that also
 *   - has the api_id of the last launch record (full call or repeat of either size) of this slot,
 *   - has as seq one more than the thread's previous call record (full call or repeat of either size),
 *   - starts less than 2^32 ticks after the slot's last launch record and lasts less than 2^28 ticks.
 * A reader keeps, per thread, the last seq and, per slot, the api_id and the t0 of its last launch record, in
 * the file's own units (ticks after a CT_REC_CLOCK): t0 = that t0 + dt0, t1 = t0 + the low 28 bits of
 * dur_slot.  The slot's generation is its current one. */
struct ct_rec_launch_short {
    struct ct_rec_hdr h;
    uint32_t dt0;      /* t0 - t0 of the slot's last launch record */
    uint32_t dur_slot; /* t1 - t0 in bits 0..27; shape - 1 (0..CT_LAUNCH_SHAPES - 1) in bits 28..31 */
}; /* 16 bytes */
#define CT_SHORT_DUR_BITS 28

/* CT_REC_CALL_SHORT: a CT_REC_CALL without payload (cuCtxGetDevice, cuStreamIsCapturing, ...: a framework's
 * step makes thousands) in a third of the bytes, for a call that
 *   - returned CUDA_SUCCESS and has no call stack,
 *   - has as seq one more than the thread's previous call record (of any call type),
 *   - starts less than 2^32 ticks after the t0 of that record and lasts less than 2^16 ticks.
 * A reader keeps, per thread, the last call record's seq and t0 in the file's own units (ticks after a
 * CT_REC_CLOCK): t0 = that t0 + dt0, t1 = t0 + dur. */
struct ct_rec_call_short {
    struct ct_rec_hdr h;
    uint16_t api_id;
    uint16_t dur; /* t1 - t0 */
    uint32_t dt0; /* t0 - t0 of the thread's previous call record */
}; /* 16 bytes */
#define CT_CALL_SHORT_DUR_MAX UINT16_MAX

/* CT_REC_CLOCK: from here to the next CT_REC_CLOCK, the times of CT_REC_CALL (t0_ns, t1_ns),
 * CT_REC_LAUNCH_REPEAT (t0_ns, dur_ns), CT_REC_LAUNCH_SHORT (dt0, dur_slot) and CT_REC_CALL_SHORT (dt0, dur)
 * records are counts of a tick clock (the TSC), and a reader turns them into CLOCK_MONOTONIC ns with
 * ct_clock_ticks_to_ns (a repeat's t1 is t0 + dur_ns ticks; a short record's times are first made whole, in
 * ticks).  Before the first one they are ns already.  No other time field is ever in ticks.  The writer
 * converts none of these itself, so that it never has to touch each call record on its way to the file. */
struct ct_rec_clock {
    struct ct_rec_hdr h; /* h.tid 0 */
    uint64_t base_ticks;
    uint64_t base_ns;
    double ns_per_tick; /* > 0 */
}; /* 32 bytes */

static inline uint64_t ct_clock_ticks_to_ns(uint64_t ticks, const struct ct_rec_clock *c)
{
    /* Signed: a time read on another CPU a hair before the base pair must not wrap around. */
    double ns = (double)(int64_t)(ticks - c->base_ticks) * c->ns_per_tick;
    if (!(ns > -9.2e18 && ns < 9.2e18)) /* corrupt: a time no reader accepts, not an undefined conversion */
        return UINT64_MAX;
    return c->base_ns + (uint64_t)(int64_t)ns;
}

/* Memory kinds, for allocations, frees and the two ends of a copy. */
enum ct_mem_kind {
    CT_MEM_UNKNOWN = 0,
    CT_MEM_DEVICE = 1,   /* cuMemAlloc, cuMemAllocPitch */
    CT_MEM_HOST = 2,     /* pageable host memory (copy ends only) */
    CT_MEM_PINNED = 3,   /* cuMemAllocHost, cuMemHostAlloc, registered host memory */
    CT_MEM_MANAGED = 4,  /* cuMemAllocManaged */
    CT_MEM_ASYNC = 5,    /* stream-ordered: cuMemAllocAsync, cuMemAllocFromPoolAsync */
    CT_MEM_VMM = 6,      /* virtual memory: cuMemCreate (physical) */
    CT_MEM_VMM_MAP = 7,  /* virtual memory: cuMemMap (a mapping of physical memory) */
    CT_MEM_ARRAY = 8,    /* CUDA array (copy ends only) */
};

/* Payload after a call record, payload == CT_FAM_ALLOC. */
struct ct_pl_alloc {
    uint64_t bytes;
    uint64_t address; /* returned device/host address or handle; 0 if the call failed */
    uint64_t stream;  /* async allocations */
    uint32_t kind;    /* enum ct_mem_kind */
    int32_t device;   /* -1 if not known */
}; /* 32 bytes */

/* payload == CT_FAM_FREE. */
struct ct_pl_free {
    uint64_t address;
    uint64_t stream;
    uint32_t kind;    /* enum ct_mem_kind */
    uint32_t reserved;
}; /* 24 bytes */

/* payload == CT_FAM_LAUNCH. */
struct ct_pl_launch {
    uint64_t function; /* CUfunction / CUkernel / CUgraphExec handle */
    uint64_t stream;
    uint32_t name_id;  /* CT_REC_STRING id of the kernel name, 0 if unknown */
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t cluster[3]; /* 0 when not a cluster launch */
    uint32_t shared_mem;
    uint32_t kind;     /* enum ct_launch_kind */
}; /* 64 bytes */

enum ct_launch_kind { CT_LAUNCH_KERNEL = 1, CT_LAUNCH_COOPERATIVE = 2, CT_LAUNCH_HOST_FUNC = 3, CT_LAUNCH_GRAPH = 4 };

/* Copy/set flags (ct_pl_copy.flags). */
#define CT_COPY_SET   (1u << 0) /* a memset, not a copy */
#define CT_COPY_ASYNC (1u << 1)
#define CT_COPY_2D    (1u << 2)
#define CT_COPY_3D    (1u << 3)
#define CT_COPY_PEER  (1u << 4) /* a peer call, or a copy between device memory of two devices */
#define CT_COPY_BATCH (1u << 5)

/* payload == CT_FAM_COPY. */
struct ct_pl_copy {
    uint64_t bytes;   /* total bytes moved or set */
    uint64_t src;     /* source address (0 for sets) */
    uint64_t dst;
    uint64_t stream;
    uint64_t width;   /* 2D/3D extents in bytes/rows/slices; 0 when 1D */
    uint64_t height;
    uint64_t depth;
    uint32_t flags;   /* CT_COPY_* */
    uint16_t src_kind; /* enum ct_mem_kind */
    uint16_t dst_kind;
    int32_t src_device; /* peer copies (CT_COPY_PEER: a peer call, or device memory of two devices); else -1 */
    int32_t dst_device;
}; /* 72 bytes */

/* Why records were lost (ct_rec_lost.reason).  NESTED: calls a thread made while it was inside the tracer
 * (from a signal handler that interrupted the recording of a call), which the tracer passed through
 * unrecorded. */
enum ct_lost_reason { CT_LOST_BUFFER_FULL = 1, CT_LOST_WRITE_ERROR = 2, CT_LOST_SHUTDOWN = 3, CT_LOST_NESTED = 4 };

/* CT_REC_LOST: `count` records of thread h.tid were dropped for `reason` between t_first and t_last. */
struct ct_rec_lost {
    struct ct_rec_hdr h;
    uint64_t count;
    uint64_t t_first_ns;
    uint64_t t_last_ns;
    uint32_t reason;
    uint32_t reserved;
}; /* 40 bytes */

/* CT_REC_DRIVER. */
struct ct_rec_driver {
    struct ct_rec_hdr h;
    int32_t driver_version; /* cuDriverGetVersion, e.g. 13000 */
    int32_t device_count;
}; /* 16 bytes */

/* CT_REC_DEVICE. */
struct ct_rec_device {
    struct ct_rec_hdr h;
    int32_t ordinal;
    int32_t reserved;
    uint64_t total_mem;
    uint8_t uuid[16];
    char name[64]; /* NUL padded */
}; /* 104 bytes */

/* CT_REC_THREAD: the thread's name from here on (written from format 6: its OS name at its first record,
 * each rename by pthread_setname_np or prctl(PR_SET_NAME), each nvtxNameOsThread); a reader keeps the last. */
struct ct_rec_thread {
    struct ct_rec_hdr h; /* h.tid is the thread */
    uint32_t name_id;    /* CT_REC_STRING */
    uint32_t reserved;
}; /* 16 bytes */

/* CT_REC_UNTRACED: `count` pointers for symbol `name_id` (CT_STR_OTHER) were handed back unwrapped. */
struct ct_rec_untraced {
    struct ct_rec_hdr h;
    uint32_t name_id;
    uint32_t count;
}; /* 16 bytes */

/* CT_REC_END: written last on a clean close. */
struct ct_rec_end {
    struct ct_rec_hdr h;
    uint64_t calls;    /* call records written */
    uint64_t lost;     /* calls lost, all reasons */
    uint64_t untraced; /* pointers handed back untraced */
    int64_t end_mono_ns; /* 0 to CT_MONO_NS_MAX */
}; /* 40 bytes */

/* CT_REC_STACK: the call stack `id` (ct_rec_call.stack_id refers to it), written once, before or after the
 * first call that uses it.  Followed by `nframes` uint64_t return addresses, innermost first: the tracer's,
 * the driver's and the CUDA runtime's own frames are already cut (`trimmed` of them), so the first frame is
 * in the program or the framework that called.  Addresses are the process's; CT_REC_MODULE maps them. */
struct ct_rec_stack {
    struct ct_rec_hdr h;
    uint32_t id;      /* >= 1 */
    uint16_t nframes;
    uint16_t trimmed; /* leading frames cut */
}; /* 16 bytes + 8 * nframes */

/* CT_REC_PYSTACK (format 7): the Python frames of the CPython thread that made the calls of stack `id`,
 * written once, right after that CT_REC_STACK.  Followed by `nframes` struct ct_py_frame, innermost first.
 * Each says where it goes among the stack's native frames: before native frame `before` (nframes of the
 * stack: after them all), so a reader interleaves them where the interpreter's eval loop was. */
struct ct_rec_pystack {
    struct ct_rec_hdr h;
    uint32_t id;      /* the CT_REC_STACK's id */
    uint16_t nframes;
    uint16_t reserved;
}; /* 16 bytes + 16 * nframes */

struct ct_py_frame {
    uint32_t file_id; /* CT_REC_STRING (CT_STR_PYTHON): the code object's co_filename */
    uint32_t name_id; /* CT_REC_STRING (CT_STR_PYTHON): co_qualname (3.11+), co_name before */
    uint32_t line;    /* 0 when unknown */
    uint16_t before;  /* the native frame it precedes */
    uint16_t reserved;
}; /* 16 bytes */

#define CT_MOD_INTERNAL (1u << 0) /* the tracer, the driver or the CUDA runtime: its frames are trimmed */
#define CT_BUILD_ID_MAX 32

/* CT_REC_MODULE: a loaded ELF object, followed by `path_len` bytes of its path and padding.  Written for the
 * objects loaded at start and for each one loaded later, before the first stack that has a frame in it; also
 * for an object loaded at (part of) an unloaded one's range, even at the same base and range.  Two records
 * may thus cover one address: a stack's frames are those of the last record before the CT_REC_STACK that
 * covers them (doc/format.md). */
struct ct_rec_module {
    struct ct_rec_hdr h;
    uint64_t base;        /* load bias: address in the file = process address - base */
    uint64_t lo, hi;      /* process addresses its PT_LOAD segments span, [lo, hi) */
    uint16_t path_len;
    uint8_t build_id_len; /* bytes of build_id used (NT_GNU_BUILD_ID), 0 when it has none */
    uint8_t flags;        /* CT_MOD_* */
    uint32_t reserved;
    uint8_t build_id[CT_BUILD_ID_MAX];
}; /* 72 bytes + path */

/* CT_REC_GPU: the device's side of one timed call (a kernel launch, a copy or a set; a whole graph launch
 * timed by events, or each kernel, copy and set of one timed by CUPTI's activity records).  h.tid is the
 * calling thread and `seq` the call's sequence number (unique within the file), which joins the span to its
 * call record or launch repeat; the span is written later than its call, once the work completed.  It
 * repeats what the GPU tables group by (kernel name and shape; copy bytes, kind and direction), so they need
 * no join.  Times are CLOCK_MONOTONIC ns on the trace's clock (never ticks).  Which source timed the spans
 * (CT_REC_GPU_INFO's source): timing events recorded on the call's stream just before and just after it
 * (the start placed through an event recorded on a stream of the tracer's own at a known host time, the
 * duration the events'); or CUPTI's activity records, the GPU's own start and end of the work, mapped from
 * CUPTI's clock to the trace's (doc/gpu-time.md). */
struct ct_rec_gpu {
    struct ct_rec_hdr h;
    uint64_t seq;         /* 0 with CT_GPU_SPAN_NO_CALL */
    uint64_t start_ns;
    uint64_t end_ns;      /* >= start_ns */
    uint64_t stream;      /* the call's CUstream (a per-thread call's 0 is CU_STREAM_PER_THREAD, 2); with
                           * CT_GPU_SPAN_NO_CALL the device's stream id */
    uint16_t api_id;      /* the call's (CT_REC_API); 0 with CT_GPU_SPAN_NO_CALL */
    uint8_t family;       /* CT_FAM_LAUNCH or CT_FAM_COPY: which of the two groups below is filled */
    uint8_t flags;        /* CT_GPU_SPAN_* (format 8; 0 before) */
    int32_t device;       /* the context's device ordinal, -1 if not known */
    /* CT_FAM_LAUNCH, as in the call's ct_pl_launch: */
    uint32_t name_id;     /* kernel name (CT_REC_STRING), 0 for a graph or an unknown kernel */
    uint32_t launch_kind; /* enum ct_launch_kind */
    uint32_t grid[3];
    uint32_t block[3];
    /* CT_FAM_COPY, as in the call's ct_pl_copy: */
    uint64_t bytes;
    uint32_t copy_flags;  /* CT_COPY_* */
    uint16_t src_kind;    /* enum ct_mem_kind */
    uint16_t dst_kind;
}; /* 96 bytes */

/* ct_rec_gpu.flags */
#define CT_GPU_SPAN_SAMPLED (1u << 0) /* events, sampled: this span was timed as one of sample_n calls of its kind
                                       * (a reader weighs it by sample_n); without it a span stands for itself */
#define CT_GPU_SPAN_GRAPH (1u << 1)   /* activity: one kernel, copy or set of a graph launch (its call's api_id
                                       * is the graph launch's; several spans share the call) */
#define CT_GPU_SPAN_NO_CALL (1u << 2) /* activity: no recorded call was found for it (a call made untraced, or
                                       * whose record was lost): h.tid, seq and api_id 0 */
#define CT_GPU_SPAN_ACTIVITY (1u << 3) /* timed by CUPTI's activity records (else by timing events) */

/* How calls are chosen for GPU timing (CUDATRACE_GPU_TIME), as a CT_REC_GPU_INFO's mode: none, a sample of
 * each kind (events only), or every one. */
enum ct_gpu_time_mode { CT_GPU_OFF = 0, CT_GPU_SAMPLE = 1, CT_GPU_ALL = 2 };
/* What times them. */
enum ct_gpu_source { CT_GPU_SRC_NONE = 0, CT_GPU_SRC_EVENTS = 1, CT_GPU_SRC_ACTIVITY = 2 };
/* Why that source (CUDATRACE_GPU_TIME chose it, or CUPTI could not serve). */
enum ct_gpu_why {
    CT_GPU_WHY_CHOSEN = 0,      /* asked for, or the default */
    CT_GPU_WHY_NO_CUPTI = 1,    /* no usable libcupti was found */
    CT_GPU_WHY_CUPTI_BUSY = 2,  /* another CUPTI client held it first (a tool such as nsys or ncu, or the
                                 * program; CUDA_INJECTION64_PATH named another library) */
    CT_GPU_WHY_PROGRAM = 3,     /* the program itself started using CUPTI while traced (torch.profiler, ...) */
    CT_GPU_WHY_CUPTI_ERROR = 4, /* CUPTI refused to start */
    CT_GPU_WHY_CHILD = 5,       /* a forked child: CUPTI is its parent's */
};
/* What CUDATRACE_GPU_TIME asked for. */
enum ct_gpu_request {
    CT_GPU_REQ_OFF = 0,
    CT_GPU_REQ_SAMPLE = 1,   /* events, a sample of each kind */
    CT_GPU_REQ_EVENTS = 2,   /* events, every call */
    CT_GPU_REQ_AUTO = 3,     /* activity, else events sampled */
    CT_GPU_REQ_ALL = 4,      /* activity, else events on every call */
    CT_GPU_REQ_ACTIVITY = 5, /* activity, else nothing */
};

/* CT_REC_GPU_INFO: written when the recorder starts, when GPU time's source is chosen or changes, and again,
 * with `final` 1, when GPU timing ends (exit); a reader keeps the last.  In sample mode each thread times the
 * first `sample_k` calls of every kind (function, kernel, grid and block; a copy's function and size class),
 * then one in `sample_n`.  Format 5 to 7 records end after untimed_capture (CT_REC_GPU_INFO_V5_SIZE). */
struct ct_rec_gpu_info {
    struct ct_rec_hdr h;      /* h.tid 0 */
    uint32_t mode;            /* enum ct_gpu_time_mode */
    uint32_t sample_n;
    uint32_t sample_k;
    uint32_t final;           /* 1: the counts below are the process's totals */
    uint64_t timed;           /* CT_REC_GPU spans written */
    uint64_t not_completed;   /* timed calls whose work had not completed when their context was destroyed,
                               * or at exit */
    uint64_t untimed_pool;    /* chosen, but their context had no free timing event left */
    uint64_t untimed_refused; /* chosen, but the driver refused to create or record a timing event */
    uint64_t untimed_capture; /* chosen, but their stream was being captured into a graph */
    /* format 8: */
    uint32_t source;          /* enum ct_gpu_source timing calls since source_ns */
    uint32_t why;             /* enum ct_gpu_why */
    uint32_t request;         /* enum ct_gpu_request */
    uint32_t reserved;
    uint64_t source_ns;       /* when that source began (trace clock ns); 0: from the start */
    uint64_t no_call;         /* activity spans written with CT_GPU_SPAN_NO_CALL */
    uint64_t dropped;         /* activity records CUPTI dropped (its buffers were full): never seen */
}; /* 104 bytes */
#define CT_REC_GPU_INFO_V5_SIZE 64u

/* NVTX (format 6).  libcudatrace.so is an NVTX injection library: the program's NVTX calls become CT_REC_NVTX
 * records in the calling thread's ring, among its calls.  A push/pop range is the span from a PUSH to the
 * POP that closes it on the same thread and domain (a per-thread, per-domain stack); a start/end range is
 * the span from START to the END of the same range_id, which any thread may write. */
enum ct_nvtx_kind { CT_NVTX_PUSH = 1, CT_NVTX_POP = 2, CT_NVTX_START = 3, CT_NVTX_END = 4, CT_NVTX_MARK = 5 };
#define CT_NVTX_COLOR (1u << 0) /* ct_rec_nvtx.color holds an ARGB color */

/* CT_REC_NVTX: one NVTX event of thread h.tid. */
struct ct_rec_nvtx {
    struct ct_rec_hdr h;
    uint8_t kind;       /* enum ct_nvtx_kind */
    uint8_t flags;      /* CT_NVTX_* */
    uint16_t domain;    /* 0: the default domain; else a CT_REC_NVTX_NAME's domain */
    uint32_t name_id;   /* CT_REC_STRING (CT_STR_NVTX) of the message; 0: none (pops, ends, no message) */
    uint64_t t_ns;      /* CLOCK_MONOTONIC ns (the writer converts the ticks it recorded) */
    uint64_t range_id;  /* START and END: the nvtxRangeId_t that pairs them (process-unique); else 0 */
    uint32_t category;  /* 0: none */
    uint32_t color;     /* with CT_NVTX_COLOR */
}; /* 40 bytes */

enum ct_nvtx_name_what { CT_NVTX_NAME_DOMAIN = 1, CT_NVTX_NAME_CATEGORY = 2 };

/* CT_REC_NVTX_NAME: domain `domain` is called name_id (DOMAIN), or category `category` of that domain is
 * (CATEGORY).  Written once per name, before or after the events that use it. */
struct ct_rec_nvtx_name {
    struct ct_rec_hdr h;
    uint8_t what;       /* enum ct_nvtx_name_what */
    uint8_t reserved;
    uint16_t domain;
    uint32_t category;
    uint32_t name_id;   /* CT_REC_STRING (CT_STR_NVTX) */
    uint32_t reserved2;
}; /* 24 bytes */

/* Where a process's rank came from (ct_rec_rank.source). */
enum ct_rank_source {
    CT_RANK_NONE = 0,  /* no rank variable set */
    CT_RANK_RANK = 1,  /* RANK (torchrun, torch.distributed) */
    CT_RANK_OMPI = 2,  /* OMPI_COMM_WORLD_RANK (Open MPI) */
    CT_RANK_PMI = 3,   /* PMI_RANK (MPICH, Intel MPI) */
    CT_RANK_SLURM = 4, /* SLURM_PROCID */
};

/* CT_REC_RANK: written once, after CT_REC_PROCESS (which holds the host name).  -1 where not known. */
struct ct_rec_rank {
    struct ct_rec_hdr h;  /* h.tid 0 */
    int32_t rank;
    int32_t local_rank;
    int32_t world_size;
    uint32_t source;      /* enum ct_rank_source: the variable `rank` came from */
}; /* 24 bytes */

/* CT_REC_COUNTED (format 7): variant `api_id` is counted, not timed (the default set, or CUDATRACE_APIS:
 * CT_FEAT_APIS_*), and the process has called it `count` times so far without a call record.  Written by
 * drains whenever the count grew, so the last record of an api id holds its total; a reader keeps the last
 * (the largest).  A forked child counts from 0 in its own file.  With a CT_FEAT_APIS_* bit, a call that
 * failed is not counted but recorded, as a CT_REC_CALL without payload whose t0_ns and t1_ns are both the
 * time of its return; before them, failed calls were counted too. */
struct ct_rec_counted {
    struct ct_rec_hdr h;  /* h.tid 0 */
    uint16_t api_id;      /* CT_REC_API */
    uint16_t reserved;
    uint32_t reserved2;
    uint64_t count;
}; /* 24 bytes */

#endif
