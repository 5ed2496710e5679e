# Expectations for tests/samples/rt_entry_points.cu.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
# cuStreamBeginCapture through the pointers of each ABI: the exported variant of each version.
expect_calls "1 capture begun through the 10000 ABI (cuStreamBeginCapture)" -eq 1 variant=cuStreamBeginCapture
expect_calls "1 capture begun through the 10010 ABI (cuStreamBeginCapture_v2)" -eq 1 variant=cuStreamBeginCapture_v2
expect_calls "2 captures ended" -eq 2 name=cuStreamEndCapture
expect_calls "5 runtime launches of epAddOne (4 captured, 1 on async memory), grid 16, block 256" -eq 5 \
    family=launch kind=kernel kernel=epAddOne grid=16,1,1 block=256,1,1 'variant!=*_ptsz'
expect_calls "2 graph launches" -eq 2 family=launch kind=graph
expect_calls "cuDeviceGetUuid called through its 11040 ABI (cuDeviceGetUuid_v2)" -ge 1 variant=cuDeviceGetUuid_v2
# cuMemAllocAsync/cuMemFreeAsync (11020) found by cudaGetDriverEntryPointByVersion.
expect_calls "1 stream-ordered allocation of 16384 bytes" -eq 1 name=cuMemAllocAsync kind=async bytes=16384
expect_freed name=cuMemAllocAsync
# The per-thread default stream look-ups: the _ptsz/_ptds variants, each called once.
expect_calls "1 launch through cuLaunchKernel_ptsz" -eq 1 variant=cuLaunchKernel_ptsz kernel=epAddOne
expect_calls "1 H2D copy through cuMemcpyHtoD_v2_ptds" -eq 1 variant=cuMemcpyHtoD_v2_ptds "$H2D" bytes=16384
expect_calls "1 D2H copy through cuMemcpyDtoH_v2_ptds (from the runtime)" -eq 1 variant=cuMemcpyDtoH_v2_ptds "$D2H" bytes=16384
# The misses: only the 4-argument cuGetProcAddress reports them as errors (3: version not sufficient,
# misspelled name, version 9000); cuGetProcAddress_v2 and the runtime answer CUDA_SUCCESS with NULL.
expect_calls "3 failed look-ups through the 11030 ABI: CUDA_ERROR_NOT_FOUND" -eq 3 \
    variant=cuGetProcAddress result_name=CUDA_ERROR_NOT_FOUND
expect_total "... in the summary's errors" -eq 3 errors Count Name=cuGetProcAddress \
    'Result Name=CUDA_ERROR_NOT_FOUND'
expect_no_failed_calls
