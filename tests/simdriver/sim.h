/* Internal interfaces of the simulated CUDA driver (tests/simdriver): the state that its areas share.
 * Only the cu* entry points are exported from the library (see local.mk); everything here is private. */
#ifndef SIMDRIVER_SIM_H
#define SIMDRIVER_SIM_H

/* Declare every exported variant under its own name, as the driver itself is built: cuMemAlloc (32-bit) and
 * cuMemAlloc_v2, cuMemcpyHtoD_v2 and cuMemcpyHtoD_v2_ptds, ... instead of cuda.h's mapping of cuMemAlloc to
 * cuMemAlloc_v2. cudaTypedefs.h then also declares the PFN typedefs of the legacy variants. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cudaProfiler.h>
#include <cudaProfilerTypedefs.h>
#include <cudaTypedefs.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_DRIVER_VERSION 13000
#define SIM_DEVICE_COUNT 2
/* Peer contexts one context may enable (cuCtxEnablePeerAccess); beyond: CUDA_ERROR_TOO_MANY_PEERS. */
#define SIM_MAX_PEERS 8

/* ---- process-wide state (driver.c) ---- */

/* One recursive lock guards every table below; the simulated driver is not built for speed. */
void sim_lock(void);
void sim_unlock(void);
bool sim_initialized(void);
uint64_t sim_now_ns(void);
unsigned long long sim_next_id(void);

/* SIM_CALL_COUNTS=FILE: the calls each function that counts itself (SIM_COUNT() first thing) received,
 * written at exit as "name count" lines, so that tests can tell how many calls a tracer added. */
struct sim_counter {
    const char *name;
    unsigned long long n;
    struct sim_counter *next;
    int listed;
};
void sim_count(struct sim_counter *c);
/* The same cost on every call, whichever functions counted first (bench/run-hotpath compares runs). */
#define SIM_COUNT()                                          \
    do {                                                     \
        static struct sim_counter sim_counter_ = {__func__, 0, NULL, 0}; \
        sim_count(&sim_counter_);                            \
    } while (0)

#define SIM_REQUIRE_INIT()                         \
    do {                                           \
        if (!sim_initialized())                    \
            return CUDA_ERROR_NOT_INITIALIZED;     \
    } while (0)

/* Live handles of every kind, so that a stale or foreign handle is answered with an error, not a crash. */
enum sim_kind { SIM_CTX = 1, SIM_STREAM, SIM_EVENT, SIM_MODULE, SIM_FUNC, SIM_LINK, SIM_POOL, SIM_GRAPH, SIM_GRAPH_EXEC };

struct sim_obj {
    struct sim_obj *next, *prev;
    enum sim_kind kind;
    const void *owner; /* streams and events: their context, destroyed with it; set before registering */
};

void sim_obj_register(struct sim_obj *o, enum sim_kind kind);
bool sim_obj_unregister(struct sim_obj *o, enum sim_kind kind);
bool sim_obj_live(const void *handle, enum sim_kind kind);
/* Unregisters and returns one live object of `kind` owned by `owner`, or NULL when none is left. */
struct sim_obj *sim_obj_take_owned(enum sim_kind kind, const void *owner);

/* ---- the device timeline and settings from the environment (timeline.c) ---- */

struct sim_config {
    uint64_t kernel_ns;        /* SIM_KERNEL_NS: how long a kernel other than `spin` lasts (default 0) */
    double copy_bytes_per_ns;  /* SIM_COPY_BYTES_PER_NS: copy and set speed; 0 (default): they take no time */
    bool strict_handles;       /* SIM_STRICT_HANDLES=1: using a destroyed event aborts */
    uint64_t launch_ns;        /* SIM_LAUNCH_NS: how long a launch call takes the host (default 0) */
    int devices;               /* SIM_DEVICES: how many of the SIM_DEVICE_COUNT devices exist (default all) */
    uint64_t launch_latency_ns; /* SIM_LAUNCH_LATENCY_NS: from a launch call to its kernel's start (default 0) */
    uint64_t exit_delay_ns;    /* SIM_CUPTI_EXIT_DELAY_MS: from a tool's exit callback to the call's return (tools.c) */
};

const struct sim_config *sim_config(void);
uint64_t sim_copy_ns(size_t bytes);
/* Sleeps until CLOCK_MONOTONIC reaches ns (returns at once if it has). Call without the lock. */
void sim_sleep_until(uint64_t ns);

struct sim_capture;

/* What every stream has: the end of its last submitted work and its ongoing capture. The legacy stream's is in
 * its context, the per-thread stream's in the thread, a created stream's in the stream. */
struct sim_queue {
    uint64_t tail;
    struct sim_capture *capture; /* NULL: not capturing */
};

/* ---- devices (device.c) ---- */

struct sim_device {
    const char *name;
    size_t total_mem;
    int sm_count;
    int pci_bus;
    unsigned char uuid[16];
};

const struct sim_device *sim_device(CUdevice dev); /* NULL when dev is not a device ordinal */

/* ---- contexts (context.c) ---- */

struct CUctx_st {
    struct sim_obj obj; /* first: a handle is also its registry entry */
    CUdevice device;
    unsigned int flags;
    bool primary;
    unsigned long long id;
    struct sim_queue legacy; /* the NULL / CU_STREAM_LEGACY stream */
    uint64_t busy_until;     /* the end of the last work submitted to any of its streams */
    /* Contexts it has peer access to (cuCtxEnablePeerAccess), by id: a destroyed one's id never comes back. */
    unsigned long long peers[SIM_MAX_PEERS];
    unsigned int npeers;
};

CUcontext sim_ctx_current(void);
/* The calling thread's current context, or CUDA_ERROR_INVALID_CONTEXT (NOT_INITIALIZED before cuInit). */
CUresult sim_ctx_require(CUcontext *ctx);

/* ---- memory (memory.c) ---- */

enum sim_mem_kind {
    SIM_MEM_DEVICE,     /* cuMemAlloc*, cuMemAllocPitch */
    SIM_MEM_HOST,       /* cuMemAllocHost, cuMemHostAlloc: pinned host memory */
    SIM_MEM_REGISTERED, /* cuMemHostRegister: the caller's memory, not ours to free */
    SIM_MEM_MANAGED,    /* cuMemAllocManaged */
    SIM_MEM_ASYNC,      /* cuMemAllocAsync, cuMemAllocFromPoolAsync */
};

struct sim_alloc {
    struct sim_alloc *next;
    uintptr_t base;
    size_t size;
    size_t mapped; /* non-zero: mmap'ed (below 4 GiB, for a 32-bit legacy variant) */
    enum sim_mem_kind kind;
    CUcontext ctx;
    CUdevice device;
    unsigned int flags;
    CUmemoryPool pool;
    unsigned long long id;
};

/* The allocation holding [addr, addr+len), or NULL. Call with the lock held; the entry stays valid while it is. */
const struct sim_alloc *sim_mem_find(uintptr_t addr, size_t len);
/* Frees every allocation of a context that goes away (cuCtxDestroy, last primary release, reset). */
void sim_mem_release_ctx(CUcontext ctx);

/* ---- streams and events (stream.c) ---- */

struct CUstream_st {
    struct sim_obj obj;
    CUcontext ctx;
    unsigned int flags;
    int priority;
    unsigned long long id;
    struct sim_queue queue;
};

/* The _ptsz/_ptds variants read a NULL stream as the calling thread's per-thread stream. */
#define SIM_PTSZ(stream) ((stream) ? (stream) : CU_STREAM_PER_THREAD)

/* NULL, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD or a live stream, with a current context for the special ones. */
CUresult sim_stream_check(CUstream stream);
bool sim_stream_is_legacy(CUstream stream);
/* The queue of a checked stream and its context (the current one for the special streams). With the lock. */
struct sim_queue *sim_stream_queue(CUstream stream, CUcontext *ctx);
/* A blocking stream's work is ordered with the legacy stream's (the per-thread stream is blocking). */
bool sim_stream_blocking(CUstream stream);
void sim_stream_release_ctx(CUcontext ctx);

struct CUevent_st {
    struct sim_obj obj;
    CUcontext ctx;
    unsigned int flags;
    bool recorded;
    uint64_t ns; /* when the work before its record ends: complete once the clock reaches it */
};

/* A live event: CUDA_SUCCESS; otherwise INVALID_HANDLE, or abort() in strict mode if it was destroyed. */
CUresult sim_event_check(CUevent event);
void sim_event_release_ctx(CUcontext ctx);


/* ---- modules, functions, kernels (ptx.c, module.c, kernels.c) ---- */

struct sim_param {
    size_t offset, size, align;
};

/* One `.entry` of a PTX text: its name and the layout of its parameter buffer. */
struct sim_entry {
    char *name;
    unsigned int nparams;
    struct sim_param *params;
    size_t param_bytes;
};

/* What a PTX text declares: its kernels, the device functions it defines and those it only declares
 * (`.extern .func`, to be resolved by the linker). */
struct sim_ptx {
    unsigned int nentries, nfuncs, nexterns;
    struct sim_entry *entries;
    char **funcs, **externs;
};

/* Parses a PTX text (NUL-terminated or of len bytes). Text without .version and .target is not PTX:
 * CUDA_ERROR_INVALID_IMAGE; unreadable declarations: CUDA_ERROR_INVALID_PTX. err (if non-NULL) gets the
 * error log's line. */
CUresult sim_ptx_parse(const char *text, size_t len, struct sim_ptx *out, char *err, size_t errlen);
void sim_ptx_free(struct sim_ptx *ptx);

struct sim_dim3 {
    unsigned int x, y, z;
};

struct sim_launch {
    struct sim_dim3 grid, block;
    unsigned int shared_mem;
};

/* A kernel the simulated driver runs on the host: found by a substring of the entry name and the exact
 * parameter sizes, so `vectorAdd` and `_Z9vectorAddPKfS0_Pfi` both match. args[i] points at parameter i. */
struct sim_kernel {
    const char *match;
    unsigned int nparams;
    size_t sizes[8];
    void (*run)(const struct sim_launch *launch, void *const *args);
    uint64_t (*duration)(void *const *args); /* NULL: SIM_KERNEL_NS */
};

const struct sim_kernel *sim_kernel_find(const struct sim_entry *entry);

struct CUfunc_st {
    struct sim_obj obj;
    CUmodule module;
    const struct sim_entry *entry;
    const struct sim_kernel *kernel; /* NULL: launches are no-ops */
};

struct CUmod_st {
    struct sim_obj obj;
    CUcontext ctx;
    struct sim_ptx ptx;
    struct CUfunc_st *functions; /* one per entry, same order */
};

/* The whole file, NUL-terminated, in *out (to free); *len excludes the NUL. */
CUresult sim_read_file(const char *path, char **out, size_t *len);

/* Loads a module from an image: PTX text or the output of cuLinkComplete (also PTX text, see link.c). */
CUresult sim_module_load(CUmodule *module, const void *image, size_t len, char *err, size_t errlen);

/* ---- JIT options shared by cuModuleLoadDataEx and the linker (jit.c) ---- */

struct sim_jit_options {
    bool verbose;  /* CU_JIT_LOG_VERBOSE: the info log says what was compiled */
    void **values; /* the caller's optionValues: outputs are written back into it */
    char *info_log, *error_log;
    unsigned int info_size, error_size;
    int info_size_idx, error_size_idx, wall_time_idx; /* -1 when not asked */
};

CUresult sim_jit_options_parse(struct sim_jit_options *o, unsigned int n, const CUjit_option *options,
                               void **values);
/* Writes the logs (capped, NUL-terminated), their filled sizes and the wall time, as the driver does. */
void sim_jit_options_finish(const struct sim_jit_options *o, const char *info, const char *error, float ms);

/* ---- work submitted to a stream: run now, or recorded into a capture's graph (work.c) ---- */

enum sim_work_kind { SIM_WORK_KERNEL, SIM_WORK_COPY, SIM_WORK_SET, SIM_WORK_EVENT, SIM_WORK_HOST };

struct sim_work {
    enum sim_work_kind kind;
    uint64_t ns; /* its duration on the device */
    union {
        struct {
            const struct sim_kernel *kernel; /* NULL: a no-op */
            const char *name;                /* the entry's (a profiling tool reports it) */
            struct sim_launch geometry;
            unsigned int nparams;
            const size_t *offsets;       /* of each parameter in params */
            const unsigned char *params; /* the marshalled parameter buffer */
            size_t param_bytes;
        } kernel;
        struct {
            uintptr_t dst, src;
            size_t dpitch, spitch, width, height;
            size_t depth, dslice, sslice; /* 3D: depth slices this far apart; depth 0 is one slice */
        } copy;
        struct {
            uintptr_t dst;
            size_t pitch, width, height, size; /* rows of width elements of size bytes */
            unsigned int value;
        } set;
        CUevent event; /* an event record */
        struct {
            CUhostFn fn;
            void *data;
        } host;
    } u;
};

/* Submits checked work to a stream: runs it (its results at once, its timing on the stream's timeline), or
 * adds it to the stream's capture. `wait`: a synchronous call, which returns once the work has ended and
 * may not be captured. Legacy-stream use during a capture is CUDA_ERROR_STREAM_CAPTURE_IMPLICIT. */
CUresult sim_enqueue(CUstream stream, const struct sim_work *w, bool wait);
/* Runs work on a queue now; returns when it ends on the device timeline. Without the lock. */
uint64_t sim_work_run(struct sim_queue *q, CUcontext ctx, const struct sim_work *w);
/* A copy that owns its kernel parameters (for a graph node), or NULL. */
struct sim_work *sim_work_dup(const struct sim_work *w);
void sim_work_free(struct sim_work *w);

/* ---- what a profiling tool sees (tools.c, tool.h) ---- */

/* A call that makes work of `kind` (a graph launch: graph) starts: its correlation id, 0 when no tool is
 * attached or a call of this thread is already in progress; then sim_tool_exit with that id. */
uint32_t sim_tool_enter(enum sim_work_kind kind, bool graph);
void sim_tool_exit(enum sim_work_kind kind, bool graph, uint32_t corr);
/* Work w of the calling thread's call ran on stream_id of ctx from start to end (CLOCK_MONOTONIC ns). */
void sim_tool_ran(CUcontext ctx, unsigned long long stream_id, const struct sim_work *w, uint64_t start, uint64_t end);

/* ---- stream capture (capture.c) and graphs (graph.c) ---- */

/* A potentially unsafe call (synchronize, query, allocate, free, create) during a capture that forbids it:
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, and those captures are invalidated. */
CUresult sim_capture_unsafe_call(void);
/* Use of the legacy stream of ctx while a blocking stream of ctx captures: CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
 * and, if `invalidate`, those captures are invalidated. With the lock. */
CUresult sim_capture_legacy_use(CUstream stream, CUcontext ctx, bool invalidate);
/* Invalidates the queue's capture (an operation it cannot contain): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED. */
CUresult sim_capture_refuse(struct sim_queue *q);
CUresult sim_capture_add(struct sim_capture *c, const struct sim_work *w);
void sim_capture_end_on_destroy(struct sim_queue *q);

struct CUgraphNode_st {
    struct sim_work *work;
};

struct CUgraph_st {
    struct sim_obj obj;
    size_t count, capacity;
    struct CUgraphNode_st **nodes; /* in capture order, which is also launch order */
    bool capturing;                 /* still being captured into: not the caller's to destroy */
};

CUgraph sim_graph_new(void);
CUresult sim_graph_append(CUgraph g, const struct sim_work *w);
void sim_graph_free(CUgraph g);

#endif
