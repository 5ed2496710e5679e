/* Driver calls at the bottom of a chain of frames that alternate between functions built with a frame
 * pointer and functions built without one (which leave %rbp as their caller set it: an unwinder that trusted
 * the frame-pointer chain there would skip their callers' frames without noticing).  For call stacks
 * (tests/integration/stacks-frames.sh checks that every frame is there) and for the instructions a stacked
 * call costs (bench/run-hotpath -s).
 * Usage: deep_stack_drv [CALLS [DEPTH]]: CALLS cuCtxGetDevice and CALLS launches of an empty kernel (default
 * 3 each) from `at_bottom`, under DEPTH frames (default 6, at most 200) of with_fp and without_fp, the one
 * next to main with_fp.  Prints "deep_stack_drv: PASSED" when every call succeeded. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "drv_sample.h"

/* Each frame its own: not inlined, cloned or turned into a tail call (the caller adds to the result). */
#if defined(__GNUC__) && !defined(__clang__)
#define WITH_FP __attribute__((noipa, optimize("no-omit-frame-pointer")))
#define WITHOUT_FP __attribute__((noipa, optimize("omit-frame-pointer")))
#else /* clang: the build's own frame-pointer setting for both */
#define WITH_FP __attribute__((noinline))
#define WITHOUT_FP __attribute__((noinline))
#endif

static struct sample_empty_kernel k;
static long calls = 3;
static volatile int sink;

WITH_FP static int at_bottom(void)
{
    CUdevice dev;

    for (long i = 0; i < calls; i++)
        CHECK(cuCtxGetDevice(&dev));
    for (long i = 0; i < calls; i++)
        CHECK(cuLaunchKernel(k.fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    return sink;
}

static int with_fp(int n);

WITHOUT_FP static int without_fp(int n)
{
    return (n > 1 ? with_fp(n - 1) : at_bottom()) + sink;
}

WITH_FP static int with_fp(int n)
{
    return (n > 1 ? without_fp(n - 1) : at_bottom()) + sink;
}

int main(int argc, char **argv)
{
    char *end;
    long depth = 6;

    if (argc > 1 && ((calls = strtol(argv[1], &end, 10)) < 1 || *end))
        sample_require(0, "CALLS must be a positive count");
    if (argc > 2 && ((depth = strtol(argv[2], &end, 10)) < 1 || depth > 200 || *end))
        sample_require(0, "DEPTH must be a count of frames from 1 to 200");
    sample_empty_kernel_load(&k);
    sink = with_fp((int)depth);
    CHECK(cuCtxSynchronize());
    sample_empty_kernel_done(&k);
    puts("deep_stack_drv: PASSED");
    return 0;
}
