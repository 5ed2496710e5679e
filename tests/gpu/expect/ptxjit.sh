# Expectations for tests/samples/ptxjit.c.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
for f in cuLinkCreate cuLinkAddData cuLinkAddFile cuLinkComplete cuModuleLoadData cuLinkDestroy; do
    expect_calls "1 $f" -eq 1 name=$f
done
expect_calls "1 launch of ptxjit_vecAdd with cuLaunchKernelEx, grid 33, block 128, on a stream" -eq 1 \
    name=cuLaunchKernelEx kernel=ptxjit_vecAdd grid=33,1,1 block=128,1,1 stream!=0x0
expect_total "3 pinned host allocations of 16396 bytes" -eq 3 memory Allocs Kind=pinned
expect_total "3 device allocations of 16396 bytes" -eq 3 memory Allocs Kind=device
expect_freed bytes=16396
expect_calls "2 H2D copies of 16396 bytes from pinned memory" -eq 2 "$H2D" bytes=16396 src_kind=pinned
expect_calls "1 D2H copy of 16396 bytes to pinned memory" -eq 1 "$D2H" bytes=16396 dst_kind=pinned
expect_calls "the primary context retained once" -eq 1 name=cuDevicePrimaryCtxRetain
expect_calls "the primary context released once" -eq 1 name=cuDevicePrimaryCtxRelease
expect_no_failed_calls
