# Expectations for tests/samples/py_triton.py.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "1 launch of add_kernel, grid 97, block 128" -eq 1 'kernel=*add_kernel*' grid=97,1,1 block=128,1,1
expect_calls "allocations" -ge 1 family=alloc
expect_calls "2 H2D copies of 393728 bytes" -ge 2 "$H2D" bytes=393728
expect_calls "1 D2H copy of 393728 bytes" -ge 1 "$D2H" bytes=393728
note_kernels
