# Expectations for tests/samples/vectoradd_drv.c.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "1 context created" -eq 1 name=cuCtxCreate
expect_calls "1 module loaded from a file" -eq 1 name=cuModuleLoad
expect_calls "1 module loaded from memory with JIT options" -eq 1 name=cuModuleLoadDataEx
expect_calls "1 launch of vectorAdd (kernelParams), grid 196, block 256" -eq 1 \
    name=cuLaunchKernel 'kernel=vectorAdd(*' grid=196,1,1 block=256,1,1
expect_calls "1 launch of vectorAddScaled (extra), grid 196, block 256" -eq 1 \
    kernel=vectorAddScaled grid=196,1,1 block=256,1,1
expect_calls "1 launch of emptyKernel, grid 1, block 1" -eq 1 kernel=emptyKernel grid=1,1,1 block=1,1,1
expect_calls "3 launches in all" -eq 3 family=launch
expect_total "3 device allocations, 600000 bytes" -eq 600000 memory 'Alloc Bytes' Kind=device
expect_total "... all freed" -eq 0 memory 'Live At Exit' Kind=device
expect_calls "2 H2D copies of 200000 bytes" -eq 2 "$H2D" bytes=200000
expect_calls "2 D2H copies of 200000 bytes (one async)" -eq 2 "$D2H" bytes=200000
expect_calls "... one of them cuMemcpyDtoHAsync on a stream" -eq 1 "$D2H" name=cuMemcpyDtoHAsync stream!=0x0
expect_total "1 memset of 200000 bytes" -eq 200000 copies 'Total Bytes' 'Operation=*memset*'
expect_calls "legacy default-stream variants only" -eq 0 'variant=*_pt[sd][sz]'
expect_no_failed_calls
