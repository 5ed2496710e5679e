# Expectations for tests/samples/vectoradd_drv.c (driver API, -lcuda).
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
expect_calls "1 context created" -eq 1 ' name=cuCtxCreate '
expect_calls "1 module loaded from a file" -eq 1 ' name=cuModuleLoad '
expect_calls "1 module loaded from memory with JIT options" -eq 1 ' name=cuModuleLoadDataEx '
expect_calls "1 launch of vectorAdd (kernelParams), grid 196, block 256" -eq 1 \
    ' launch kernel=_Z9vectorAddPKfS0_Pfi kind=kernel grid=196,1,1 block=256,1,1 '
expect_calls "1 launch of vectorAddScaled (extra), grid 196, block 256" -eq 1 \
    "$(re_launch vectorAddScaled)grid=196,1,1 block=256,1,1 "
expect_calls "1 launch of emptyKernel, grid 1, block 1" -eq 1 "$(re_launch emptyKernel)grid=1,1,1 block=1,1,1 "
expect_calls "3 device allocations of 200000 bytes" -eq 3 "$(re_alloc 200000 device)"
expect_freed 200000
expect_calls "2 H2D copies of 200000 bytes" -eq 2 "$(re_h2d 200000)"
expect_calls "2 D2H copies of 200000 bytes (one async)" -eq 2 "$(re_d2h 200000)"
expect_calls "1 cuMemsetD8 of 200000 bytes" -eq 1 ' name=cuMemsetD8 .* copy bytes=200000 '
expect_no_failed_calls
