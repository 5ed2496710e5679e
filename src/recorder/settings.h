/* CUDATRACE_* configuration of the recorder (README.md, "Environment variables"): every variable is read
 * through ct_env, and validated here but for CUDATRACE_CLOCK (clock.c) and CUDATRACE_APIS (apis.c).  A bad
 * value gives one "cudatrace:" warning and the default. */
#ifndef CT_RECORDER_SETTINGS_H
#define CT_RECORDER_SETTINGS_H

#include <stddef.h>

#define CT_DEFAULT_OUTPUT "cudatrace-%p.ctrace"
#define CT_DEFAULT_BUFFER_SIZE (8u << 20) /* 85 ms of headroom at 2 M records/s: a stalled write() on a busy machine */
#define CT_MIN_BUFFER_SIZE (64u << 10)
#define CT_MAX_BUFFER_SIZE (1u << 30)
#define CT_DEFAULT_FLUSH_MS 100u /* a ring a quarter full wakes the writer sooner (ct_writer_nudge) */
#define CT_MIN_FLUSH_MS 1u
#define CT_MAX_FLUSH_MS 10000u
#define CT_DEFAULT_FILE_MODE 0600u
/* Call stacks (stacks.h): which calls get one, and how many frames of the program are kept. */
enum ct_stack_mode { CT_STACKS_NONE = 0, CT_STACKS_ALLOC = 1, CT_STACKS_ALL = 2 };
#define CT_DEFAULT_STACKS CT_STACKS_ALLOC
#define CT_DEFAULT_STACK_DEPTH 16u
#define CT_MAX_STACK_DEPTH 64u
/* GPU time (gpu.h): which launches and copies get timing events, and how often after the first of a kind. */
#define CT_DEFAULT_GPU_SAMPLE 32u
#define CT_MAX_GPU_SAMPLE 1000000u
/* What is recorded (capture.h): every call, or only calls inside cuProfilerStart/Stop ranges, or inside an
 * NVTX range of a given message (and domain). */
enum ct_capture_mode { CT_CAPTURE_ALL = 0, CT_CAPTURE_PROFILER = 1, CT_CAPTURE_NVTX = 2 };
#define CT_CAPTURE_NAME_MAX 256
struct ct_capture_spec {
    int mode;                          /* enum ct_capture_mode */
    char range[CT_CAPTURE_NAME_MAX];   /* CT_CAPTURE_NVTX: the range's message */
    char domain[CT_CAPTURE_NAME_MAX];  /* ... and its domain's name, "" for the default domain */
};

/* Record-time filters (CUDATRACE_APIS, apis.h): comma-separated globs of driver function names, each an
 * include or, with a leading '-', an exclude; later entries win. */
#define CT_APIS_MAX 64
#define CT_APIS_PATTERN_MAX 128
struct ct_apis_spec {
    unsigned n;
    struct {
        char pattern[CT_APIS_PATTERN_MAX]; /* fnmatch(3) glob: letters, digits, '_', '*', '?' */
        int exclude;
    } e[CT_APIS_MAX];
};

struct ct_settings {
    char output[1024];  /* CUDATRACE_OUTPUT: file name template (%p %h %q{VAR} %%) */
    size_t buffer_size; /* CUDATRACE_BUFFER_SIZE: per-thread ring, bytes, a power of two */
    unsigned flush_ms;  /* CUDATRACE_FLUSH_MS: writer interval */
    int quiet;          /* CUDATRACE_QUIET: no summary line at exit */
    unsigned file_mode; /* CUDATRACE_FILE_MODE: permission bits of new trace files */
    int stacks;         /* CUDATRACE_STACKS: enum ct_stack_mode in effect (none when built without libunwind) */
    unsigned stack_depth; /* CUDATRACE_STACK_DEPTH: frames kept per stack, 1..CT_MAX_STACK_DEPTH */
    int python_stacks;  /* CUDATRACE_PYTHON_STACKS: 1 auto (Python frames in stacks of a CPython process), 0 off */
    int gpu_time;       /* CUDATRACE_GPU_TIME: enum ct_gpu_request (format.h) */
    unsigned gpu_sample; /* CUDATRACE_GPU_SAMPLE: 1 call in N is timed once a kind has its first timings */
    char cupti[1024];   /* CUDATRACE_CUPTI: the libcupti to load, an absolute file name ("" look for one) */
    char file_list[1024]; /* CUDATRACE_FILE_LIST: append each trace file's absolute name here ("" none) */
};

/* Secure-execution mode (AT_SECURE: a set-user-ID or set-group-ID program, or one given capabilities): the
 * environment belongs to a user with fewer rights than the process, so no CUDATRACE_* variable is read (as
 * glibc ignores MALLOC_* then) and nothing is traced: the library only passes calls on, says nothing and
 * leaves the environment alone.  The one place this is decided; getauxval is called through the PLT, so
 * tests can interpose it (tests/integration/secure-mode.sh). */
int ct_secure_mode(void);
/* getenv for a CUDATRACE_* variable: NULL in secure-execution mode. */
const char *ct_env(const char *name);

/* Read the environment; warn once per bad variable. */
void ct_settings_load(struct ct_settings *s);
/* CUDATRACE_CAPTURE, read apart from the rest: it must be known before the program's first driver call
 * (capture.c), while the rest waits for the first recorded one.  Silent: a bad value is all here, and
 * ct_settings_load warns about it. */
void ct_settings_capture(struct ct_capture_spec *c);
/* CUDATRACE_NVTX_FORWARD, read when the program's NVTX initializes (preload/nvtx.c): the NVTX injection
 * library the user had set in NVTX_INJECTION64_PATH, which libcudatrace.so calls on to; NULL when none. */
const char *ct_settings_nvtx_forward(void);

/* Parsers (0 on success, -1 on a bad value; *out untouched then, but for ct_parse_apis, which fills its
 * large spec as it goes and leaves what it parsed before the bad entry: callers discard it). */
int ct_parse_size(const char *s, size_t *out);        /* "4M", "65536", "512K", "1G" */
int ct_parse_uint(const char *s, unsigned *out);      /* decimal */
int ct_parse_bool(const char *s, int *out);           /* 1/0, yes/no, true/false, on/off */
int ct_parse_mode(const char *s, unsigned *out);      /* octal, at most 0777 */
int ct_parse_stacks(const char *s, int *out);        /* none, alloc, all (any case) */
int ct_parse_python_stacks(const char *s, int *out); /* auto (1), off (0) (any case) */
int ct_parse_capture(const char *s, struct ct_capture_spec *out); /* all, profiler or cudaProfilerApi (any
                                                                     * case), nvtx:RANGE[@DOMAIN] */
int ct_parse_gpu_time(const char *s, int *out); /* enum ct_gpu_request: off, sample, events, auto, all, activity
                                                 * (any case) */
int ct_parse_apis(const char *s, struct ct_apis_spec *out); /* "-cuCtxGetDevice,-cuPointerGetAttribute*";
                                                              * "" is no filter */

#endif
