# Expectations for tests/samples/rt_vectoradd.cu.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash disable=SC2154
# shellcheck source=/dev/null
. "$expectdir/vectoradd.inc"
expect_calls "launch and copies use the legacy default-stream variants" -eq 0 'variant=*_pt[sd][sz]' family!=none
