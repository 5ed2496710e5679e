#!/bin/sh
# The runtime's route: dlopen + dlsym(cuGetProcAddress_v2) + self-look-ups + all 440 requests of the CUDA 13.0
# runtime (per-thread ones included), then calls through the pointers (interpose-loader.c).  Every pointer is
# our trampoline of exactly the variant the table names; the calls are in the trace with decoded arguments.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
requests=$CT_TOP_SRCDIR/tests/data/cudart-13.0-entry-point-requests.txt
ptx=$CT_TOP_SRCDIR/tests/samples/vectoradd_kernel.ptx

LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD CUDATRACE_OUTPUT=$tmp/exact.ctrace \
    "$bin/interpose-loader" "$requests" "$ptx" "$CT_PRELOAD" >"$tmp/exact" 2>&1 ||
    fail "pointers are not the trampolines of their variants: $(grep -v ' exact=yes$' "$tmp/exact" | head -20)"
run_pair loader "$bin/interpose-loader" "$requests" "$ptx"
grep -q '^before dlopen: cuInit absent$' "$tmp/loader.traced" || fail "cuInit resolved globally before dlopen"
grep -q '^after dlopen: cuInit absent$' "$tmp/loader.traced" || fail "cuInit resolved globally from a local driver"
found=$(grep -c ' r=0 status=0 exact=yes$' "$tmp/loader.traced")
[ "$found" -ge 100 ] || fail "only $found requests answered by the simulated driver"
grep -q 'exact=NO' "$tmp/loader.traced" && fail "a pointer of the wrong variant"
grep -q '^cuLaunchKernel 7000 0x2 r=0 status=0 exact=yes$' "$tmp/loader.traced" || fail "cuLaunchKernel_ptsz"

d=loader
# 2 self-look-ups + 439 replayed + 13 for the calls through the 5-argument ABI; 1 through the 4-argument one.
expect_count $d 454 '^call .* name=cuGetProcAddress variant=cuGetProcAddress_v2 '
expect_count $d 1 '^call .* name=cuGetProcAddress variant=cuGetProcAddress result=0 '
expect_count $d 1 '^call .* name=cuInit variant=cuInit result=0 '
expect_count $d 1 '^driver version=13000 devices=2$'
expect_count $d 2 '^device ordinal=[01] '
expect_count $d 3 '^call .* name=cuMemAlloc variant=cuMemAlloc_v2 result=0 .* alloc bytes=4096 address=0x[0-9a-f]*[1-9a-f][0-9a-f]* kind=device device=0 '
expect_count $d 2 '^call .* name=cuMemcpyHtoD variant=cuMemcpyHtoD_v2_ptds result=0 .* copy bytes=4096 src_kind=host dst_kind=device flags=none '
expect_count $d 1 '^call .* name=cuMemcpyDtoH variant=cuMemcpyDtoH_v2_ptds result=0 .* copy bytes=4096 src_kind=device dst_kind=host '
expect_count $d 1 '^call .* name=cuLaunchKernel variant=cuLaunchKernel_ptsz result=0 .* launch kernel=_Z9vectorAddPKfS0_Pfi kind=kernel grid=4,1,1 block=256,1,1 cluster=0,0,0 shmem=0 stream=0x2 '
expect_count $d 3 '^call .* name=cuMemFree variant=cuMemFree_v2 result=0 .* free address=0x[0-9a-f]+ kind=device '
expect_count $d 0 '^untraced '
grep -q '^end calls=[1-9][0-9]* lost=0 untraced=0$' "$tmp/$d.dump" || fail "end record: $(tail -1 "$tmp/$d.dump")"
exit 0
