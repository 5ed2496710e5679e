# Expectations for tests/samples/profiler_range_drv.c (capture ranges through the driver API).
# sample-env: CUDATRACE_CAPTURE=profiler
# shellcheck shell=bash
# shellcheck source=/dev/null
KERNEL=emptyKernel
. "$expectdir/profiler_range.inc"
