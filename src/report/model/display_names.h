/* Names the report shows: API functions as users write them, CUresult names, demangled kernel names, memory
 * kinds and copy operations in the words nsys uses. */
#ifndef CT_REPORT_MODEL_DISPLAY_NAMES_H
#define CT_REPORT_MODEL_DISPLAY_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct rp_result_name {
    int value;
    const char *name;
};
/* Generated from cuda.h's enum cudaError_enum (gen-results.py), sorted by value. */
extern const struct rp_result_name rp_result_names[];
extern const unsigned rp_result_name_count;

/* "CUDA_ERROR_OUT_OF_MEMORY"; an unknown value is written as "CUresult(N)" into buf. */
const char *rp_result_name(int32_t result, char *buf, size_t bufsize);

/* The API name shown in reports: `name` ("cuLaunchKernel", the function as users write it), plus "_ptsz" or
 * "_ptds" when the variant is a per-thread default stream one (its stream semantics differ).  ABI version
 * suffixes (_v2, _v3) are not shown: cuda.h maps the name users write to them.  Writes into buf. */
const char *rp_api_display_name(const char *name, unsigned vflags, char *buf, size_t bufsize);

/* The demangled form of a C++ (Itanium ABI) kernel name, or `name` itself when it is not mangled or cannot be
 * demangled.  Uses libstdc++'s __cxa_demangle, found at run time (dlopen of libstdc++.so.6) so building the
 * report needs no C++ toolchain.  The result is malloc'ed; the caller frees it.  NULL only on no memory. */
char *rp_demangle(const char *name);

/* "device", "pinned", "managed", "async", "vmm", "vmm_map", "host", "array", "unknown". */
const char *rp_mem_kind_name(unsigned kind);
/* Does memory of this kind count as device memory (live-bytes counter, device peak)? */
int rp_mem_kind_on_device(unsigned kind);

/* "kernel", "cooperative", "host_func", "graph", "unknown". */
const char *rp_launch_kind_name(unsigned kind);

/* The nsys operation of a copy or set: "[CUDA memcpy Host-to-Device]", "[CUDA memset]", ... */
const char *rp_copy_operation(uint32_t flags, unsigned src_kind, unsigned dst_kind);

/* "none" or the set flags joined by ',' ("async,2d"), into buf. */
const char *rp_copy_flags(uint32_t flags, char *buf, size_t bufsize);

#endif
