# Expectations for tests/samples/py_triton.py.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
expect_calls "1 launch of add_kernel, grid 97, block 128" -eq 1 "$(re_launch add_kernel)grid=97,1,1 block=128,1,1 "
expect_calls "allocations" -ge 1 "$(re_alloc "$ANY_BYTES")"
expect_calls "2 H2D copies of 393728 bytes" -ge 2 "$(re_h2d 393728)"
expect_calls "1 D2H copy of 393728 bytes" -ge 1 "$(re_d2h 393728)"
note_kernels
