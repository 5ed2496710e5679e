# Expectations for tests/samples/rt_vectoradd.cu, built with --default-stream per-thread.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash disable=SC2154
# shellcheck source=/dev/null
. "$expectdir/vectoradd.inc"
expect_calls "the launch is the per-thread variant cuLaunchKernel_ptsz" -eq 1 variant=cuLaunchKernel_ptsz 'kernel=vectorAdd(*'
expect_calls "the 3 copies are per-thread variants (_ptds/_ptsz)" -eq 3 'variant=*_pt[sd][sz]' family=copy bytes=200000
