# Expectations for tests/samples/ptxjit.c (driver API, -lcuda: run-time PTX linking, cuLaunchKernelEx).
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
for f in cuLinkCreate cuLinkAddData cuLinkAddFile cuLinkComplete cuModuleLoadData cuLinkDestroy; do
    expect_calls "1 $f" -eq 1 " name=$f "
done
expect_calls "1 launch of ptxjit_vecAdd (cuLaunchKernelEx), grid 33, block 128" -eq 1 \
    " name=cuLaunchKernelEx .*$(re_launch ptxjit_vecAdd)grid=33,1,1 block=128,1,1 "
expect_calls "3 pinned host allocations of 16396 bytes" -eq 3 "$(re_alloc 16396 pinned)"
expect_calls "3 device allocations of 16396 bytes" -eq 3 "$(re_alloc 16396 device)"
expect_freed 16396
expect_calls "2 H2D copies of 16396 bytes from pinned memory" -eq 2 \
    ' copy bytes=16396 src_kind=pinned dst_kind=device '
expect_calls "1 D2H copy of 16396 bytes to pinned memory" -eq 1 ' copy bytes=16396 src_kind=device dst_kind=pinned '
expect_no_failed_calls
