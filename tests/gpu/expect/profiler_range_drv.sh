# Expectations for tests/samples/profiler_range_drv.c (capture ranges through the driver API).
# sample-env: CUDATRACE_CAPTURE=profiler
# shellcheck shell=bash
# shellcheck source=/dev/null
KERNEL1=emptyKernel KERNEL2=otherKernel # otherKernel's module replaced emptyKernel's between the ranges
. "$expectdir/profiler_range.inc"
expect_calls "2 cuCtxSynchronize, one through a pointer looked up before the ranges" -eq 2 name=cuCtxSynchronize
