# Expectations for tests/samples/rt_profiler_range.cu (capture ranges through the runtime's
# cudaProfilerStart/cudaProfilerStop).
# sample-env: CUDATRACE_CAPTURE=profiler
# shellcheck shell=bash
# shellcheck source=/dev/null
KERNEL1='rangeKernel*' KERNEL2='rangeKernel*'
. "$expectdir/profiler_range.inc"
