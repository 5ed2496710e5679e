# Expectations for tests/samples/py_numba.py.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "1 launch of ct_numba_scale, grid 16, block 256" -eq 1 'kernel=*ct_numba_scale*' grid=16,1,1 block=256,1,1
expect_calls "an allocation of 16384 bytes" -ge 1 family=alloc bytes=16384
expect_calls "an H2D copy of 16384 bytes" -ge 1 "$H2D" bytes=16384
expect_calls "a D2H copy of 16384 bytes" -ge 1 "$D2H" bytes=16384
note_kernels
