/* What a generated trampoline (wrappers.c, from scripts/gen-wrappers.py) needs: its real function, the
 * re-entrancy guard and the recorder.  Kept small: this is the hot path. */
#ifndef CT_PRELOAD_TRAMPOLINE_H
#define CT_PRELOAD_TRAMPOLINE_H

#include "preload/cuda_api.h"

#include <stddef.h>
#include <stdint.h>

#include "preload/capture.h"
#include "preload/decode_launch.h"
#include "preload/kernel_names.h"
#include "recorder/export.h"
#include "recorder/hot.h"
#include "recorder/recorder.h"
#include "recorder/recorder_hot.h"
#include "recorder/stacks.h"

/* Real driver function of each variant (by api id), NULL until the driver is found (ct_resolve). */
extern void *ct_real[];
#define CT_REAL(id) __atomic_load_n(&ct_real[id], __ATOMIC_ACQUIRE)

/* Non-zero while this thread runs tracer code that calls the driver or dlsym: such calls are passed
 * through untraced.  initial-exec: the library is preloaded, so its TLS is static and a read is one load. */
extern __thread int ct_guard __attribute__((tls_model("initial-exec")));

/* Slow path of a trampoline whose real function is not known yet: find the driver, then return the real
 * function of variant `id`, or NULL when the driver cannot be loaded or does not export it. */
void *ct_resolve(unsigned id);
/* What a trampoline returns when it has no real function to call. */
CUresult ct_missing(unsigned id);

#endif
