/* Capture ranges: with CUDATRACE_CAPTURE=profiler, calls are recorded only from a cuProfilerStart to the next
 * cuProfilerStop (cudaProfilerStart/Stop in the runtime), as nsys records with
 * --capture-range=cudaProfilerApi; with CUDATRACE_CAPTURE=nvtx:RANGE[@DOMAIN], only while an NVTX range of
 * that message (and domain) is open on some thread, as nsys -c nvtx -p RANGE@DOMAIN (nvtx.c opens and
 * closes them).  Outside a range a trampoline reads no clock and writes nothing; it still
 * runs its hook (hooks.h), so that pointers handed out meanwhile are trampolines and kernel names stay
 * right for the next range. */
#ifndef CT_PRELOAD_CAPTURE_H
#define CT_PRELOAD_CAPTURE_H

#include "recorder/hot.h"

/* The gate every trampoline reads before its first clock read: 0 lets the call be recorded without another
 * test (the trampolines of the default set of functions counted, not timed, also test their variant's byte
 * of ct_api_skip).  CT_GATE_CAPTURE: outside a capture range, nothing is recorded.  CT_GATE_FILTER:
 * CUDATRACE_APIS's list chose the functions counted (recorder/apis.h), so every call looks up its own byte. */
#define CT_GATE_CAPTURE 1
#define CT_GATE_FILTER 2
#define ct_gate (ct_hot.gate) /* recorder/hot.h */

/* Attach the layers below (interpose.h, ct_attach), then read CUDATRACE_CAPTURE and CUDATRACE_APIS, once:
 * from the library's constructor and, should a
 * constructor of another library call the driver before ours runs, from interpose.c before the first real
 * driver function is handed out, so that no driver call, and no cuProfilerStart, comes before the gate is
 * set. */
void ct_capture_init(void);

/* CUDATRACE_CAPTURE=nvtx:...: the range and domain (settings.h), else NULL. */
struct ct_capture_spec;
const struct ct_capture_spec *ct_capture_nvtx(void);
/* A capture range opened or closed (any thread: recording runs while at least one is open). */
void ct_capture_nvtx_open(void);
void ct_capture_nvtx_close(void);

#endif
