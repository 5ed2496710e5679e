/* Placement of what every traced call touches.  Between two calls the driver runs for microseconds, and in
 * a framework such as PyTorch much other code runs too, evicting the tracer's lines from the caches and
 * TLBs; the fewer distinct lines and pages a call touches, the less it pays to bring them back.  So the
 * flags read on each call share one cache line, and the functions of the launch path are placed together
 * in .text.hot. */
#ifndef CT_RECORDER_HOT_H
#define CT_RECORDER_HOT_H

#include <stdint.h>

/* The flags, one aligned line (state.c defines it).  Each has its owner, which documents and sets it under
 * the name its header gives it: ct_state (state.h), ct_gate (preload/capture.h), ct_stack_families
 * (stacks.h), ct_gpu_mode (gpu.h), ct_clock_mode (clock.h), ct_kernel_name_generation
 * (preload/kernel_names.h). */
struct ct_hot_flags {
    _Atomic int state;
    int gate;
    unsigned stack_families;
    int gpu_mode;
    int clock_mode;
    uint32_t kernel_name_generation;
} __attribute__((aligned(64)));
extern struct ct_hot_flags ct_hot;

#define CT_HOT_CODE __attribute__((hot))

#endif
