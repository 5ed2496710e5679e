# Expectations for tests/samples/ctx_drv.c.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
# Three rounds of vectorAdd (grid 16, block 256; 3 allocations of 16384 bytes, 2 H2D and 1 D2H copies each):
# in the created context, in it again from a worker thread, in the primary context from the "library".
expect_calls "1 context created" -eq 1 name=cuCtxCreate
expect_calls "1 context destroyed" -eq 1 name=cuCtxDestroy
expect_calls "3 pushes (worker, main, library), cuCtxPushCurrent_v2" -eq 3 variant=cuCtxPushCurrent_v2
expect_calls "3 pops (main, worker, library), cuCtxPopCurrent_v2" -eq 3 variant=cuCtxPopCurrent_v2
expect_calls "3 primary context retains (2 by main, 1 by the library)" -eq 3 name=cuDevicePrimaryCtxRetain
expect_calls "3 primary context releases" -eq 3 name=cuDevicePrimaryCtxRelease
expect_calls "3 launches of vectorAdd, grid 16, block 256" -eq 3 'kernel=vectorAdd(*' grid=16,1,1 block=256,1,1
expect_value "the launches come from 2 threads (main, worker)" -eq 2 "$(distinct tid family=launch)"
expect_calls "3 modules loaded (one per round: modules belong to a context)" -eq 3 name=cuModuleLoad
expect_total "9 device allocations of 16384 bytes" -eq 9 memory Allocs Kind=device
expect_freed bytes=16384
expect_total "6 H2D copies, 98304 bytes" -eq 98304 copies 'Total Bytes' 'Operation=*Host-to-Device*'
expect_total "3 D2H copies, 49152 bytes" -eq 49152 copies 'Total Bytes' 'Operation=*Device-to-Host*'
expect_no_failed_calls
