# Expectations for tests/samples/py_cuda_bindings.py.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "1 launch of ct_saxpy, grid 16, block 256" -eq 1 kernel=ct_saxpy grid=16,1,1 block=256,1,1
expect_calls "2 device allocations of 16384 bytes" -eq 2 family=alloc kind=device bytes=16384
expect_freed bytes=16384
expect_calls "2 H2D copies of 16384 bytes" -eq 2 "$H2D" bytes=16384
expect_calls "1 D2H copy of 16384 bytes" -eq 1 "$D2H" bytes=16384
expect_calls "1 cuModuleLoadData" -eq 1 name=cuModuleLoadData
expect_no_failed_calls
