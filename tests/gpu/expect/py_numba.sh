# Expectations for tests/samples/py_numba.py.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
expect_calls "1 launch of ct_numba_scale, grid 16, block 256" -eq 1 \
    "$(re_launch ct_numba_scale)grid=16,1,1 block=256,1,1 "
expect_calls "1 allocation of 16384 bytes" -ge 1 "$(re_alloc 16384)"
expect_calls "1 H2D copy of 16384 bytes" -ge 1 "$(re_h2d 16384)"
expect_calls "1 D2H copy of 16384 bytes" -ge 1 "$(re_d2h 16384)"
note_kernels
