# Expectations for tests/samples/rt_interop.cu.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "1 driver launch of interopScale (cuLaunchKernel), grid 64, block 128, on a runtime stream" -eq 1 \
    name=cuLaunchKernel kernel=interopScale grid=64,1,1 block=128,1,1 stream!=0x0
expect_calls "1 runtime launch of interopAddOne, grid 64, block 128" -eq 1 kernel=interopAddOne grid=64,1,1 block=128,1,1
expect_calls "1 module loaded from PTX in memory" -eq 1 name=cuModuleLoadData
expect_calls "2 device allocations of 32768 bytes (cudaMalloc, cuMemAlloc)" -eq 2 family=alloc kind=device bytes=32768
expect_freed bytes=32768
expect_calls "1 H2D copy of 32768 bytes by each API" -eq 2 "$H2D" bytes=32768
expect_calls "... the sample's cuMemcpyHtoD among them (the runtime may use it too)" -ge 1 "$H2D" bytes=32768 variant=cuMemcpyHtoD_v2
expect_calls "1 D2H copy of 32768 bytes by each API" -eq 2 "$D2H" bytes=32768
expect_calls "the primary context retained once by the sample" -ge 1 name=cuDevicePrimaryCtxRetain
expect_no_failed_calls
