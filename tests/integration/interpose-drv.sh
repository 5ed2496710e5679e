#!/bin/sh
# A -lcuda driver-API program (tests/samples/vectoradd_drv) calls our exports directly: same output traced,
# and the trace holds its calls with decoded arguments.  The same program built with
# -DCUDA_API_PER_THREAD_DEFAULT_STREAM calls the per-thread variants.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
ptx=$CT_TOP_SRCDIR/tests/samples
bytes=200000 # 50000 floats

check_common() {
    d=$1
    expect_count $d 1 '^call .* name=cuInit variant=cuInit result=0 '
    expect_count $d 1 '^driver version=13000 devices=2$'
    expect_count $d 3 "^call .* name=cuMemAlloc variant=cuMemAlloc_v2 result=0 .* alloc bytes=$bytes address=0x[0-9a-f]+ kind=device device=0 "
    expect_count $d 3 '^call .* name=cuMemFree variant=cuMemFree_v2 result=0 .* free address=0x[0-9a-f]+ kind=device '
    expect_count $d 2 '^call .* name=cuModuleUnload variant=cuModuleUnload result=0 '
    expect_count $d 1 '^call .* name=cuCtxCreate variant=cuCtxCreate_v4 result=0 '
    expect_count $d 0 '^untraced '
    grep -q '^end calls=[1-9][0-9]* lost=0 untraced=0$' "$tmp/$d.dump" || fail "$d: end record"
}

run_pair drv "$CT_TOP_BUILDDIR/tests/samples/vectoradd_drv" "$ptx"
grep -q '^vectoradd_drv: PASSED$' "$tmp/drv.traced" || fail "vectoradd_drv did not pass"
check_common drv
expect_count drv 2 "^call .* name=cuMemcpyHtoD variant=cuMemcpyHtoD_v2 result=0 .* copy bytes=$bytes src_kind=host dst_kind=device flags=none "
expect_count drv 1 "^call .* name=cuMemcpyDtoH variant=cuMemcpyDtoH_v2 result=0 .* copy bytes=$bytes src_kind=device dst_kind=host flags=none "
expect_count drv 1 "^call .* name=cuMemcpyDtoHAsync variant=cuMemcpyDtoHAsync_v2 result=0 .* copy bytes=$bytes src_kind=device dst_kind=host flags=async "
expect_count drv 1 "^call .* name=cuMemsetD8 variant=cuMemsetD8_v2 result=0 .* copy bytes=$bytes src_kind=unknown dst_kind=device flags=set "
expect_count drv 3 '^call .* name=cuLaunchKernel variant=cuLaunchKernel result=0 '
expect_count drv 1 '^call .* name=cuLaunchKernel .* launch kernel=_Z9vectorAddPKfS0_Pfi kind=kernel grid=196,1,1 block=256,1,1 cluster=0,0,0 shmem=0 stream=0x0 '
expect_count drv 1 '^call .* name=cuLaunchKernel .* launch kernel=vectorAddScaled kind=kernel grid=196,1,1 block=256,1,1 '
expect_count drv 1 '^call .* name=cuLaunchKernel .* launch kernel=emptyKernel kind=kernel grid=1,1,1 block=1,1,1 '
expect_count drv 3 '^string id=[0-9]+ kind=kernel value=(_Z9vectorAddPKfS0_Pfi|vectorAddScaled|emptyKernel)$'

run_pair ptds "$bin/interpose-vectoradd-ptds" "$ptx"
grep -q '^vectoradd_drv: PASSED$' "$tmp/ptds.traced" || fail "the per-thread build did not pass"
check_common ptds
expect_count ptds 2 "^call .* name=cuMemcpyHtoD variant=cuMemcpyHtoD_v2_ptds result=0 .* copy bytes=$bytes src_kind=host dst_kind=device "
expect_count ptds 1 "^call .* name=cuMemcpyDtoHAsync variant=cuMemcpyDtoHAsync_v2_ptsz result=0 .* copy bytes=$bytes "
expect_count ptds 1 "^call .* name=cuMemsetD8 variant=cuMemsetD8_v2_ptds result=0 "
expect_count ptds 3 '^call .* name=cuLaunchKernel variant=cuLaunchKernel_ptsz result=0 .* launch kernel=[^?]'
expect_count ptds 0 '^call .* name=cuLaunchKernel variant=cuLaunchKernel '
exit 0
