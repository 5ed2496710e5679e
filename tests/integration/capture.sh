#!/bin/sh
# CUDATRACE_CAPTURE (capture.h): by default every call is recorded; with `profiler`, only the calls from a
# cuProfilerStart to the next cuProfilerStop (that one included), a range left open running to the end.
# What happens between ranges still counts: a pointer looked up there is the tracer's, and a kernel whose
# module replaced another's there (same handle, on the simulated driver) keeps its own name.  A bad value
# is one warning, at the first traced call, and the default.  tests/samples/profiler_range_drv says what it
# calls, in order (21 calls fall in its ranges: 16 launches, the synchronize through the pointer, the
# cuProfilerStop, and the synchronize, unload and release at the end).  Last, driver calls from another
# library's constructor, which runs before the tracer's: the switch is set before the first of them.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$CT_TOP_BUILDDIR/tests/samples/profiler_range_drv
launch='^call .* name=cuLaunchKernel variant=cuLaunchKernel result=0 .* launch kernel=[a-zA-Z]* kind=kernel'
empty='^call .* name=cuLaunchKernel .* launch kernel=emptyKernel kind=kernel grid='
other='^call .* name=cuLaunchKernel .* launch kernel=otherKernel kind=kernel grid='

run_pair all "$prog"
grep -q '^profiler_range_drv: 26 launches$' "$tmp/all.traced" || fail "profiler_range_drv did not run its launches"
expect_count all 26 "$launch "
for g in 1 2 3; do
    expect_count all "$(echo "3 5 7" | cut -d' ' -f$g)" "$empty$g,1,1 "
done
expect_count all 11 "${other}4,1,1 "
grep -q "otherKernel has emptyKernel's old handle" "$tmp/all.traced.err" ||
    fail "the simulated driver did not reuse emptyKernel's handle: the case is not exercised"
expect_count all 2 '^call .* name=cuProfilerStart '
expect_count all 1 '^call .* name=cuProfilerStop '
expect_count all 1 '^call .* name=cuInit '
grep -v -e '^cudatrace: wrote ' -e "^profiler_range_drv: otherKernel has" "$tmp/all.traced.err" && fail "unexpected stderr"

export CUDATRACE_CAPTURE=profiler
run_pair range "$prog"
expect_count range 16 "$launch "
expect_count range 5 "${empty}2,1,1 "
expect_count range 11 "${other}4,1,1 "
expect_count range 0 '^call .* name=cuProfilerStart '
expect_count range 1 '^call .* name=cuProfilerStop '
expect_count range 2 '^call .* name=cuCtxSynchronize ' # one through the pointer looked up outside
expect_count range 1 '^call .* name=cuModuleUnload '
expect_count range 0 '^call .* name=(cuInit|cuModuleLoadData|cuModuleGetFunction|cuGetProcAddress) '
# GPU time (CUPTI's activity records, the default) only inside the ranges: CUPTI is off between them.
expect_count range 16 '^gpu seq=.* name=cuLaunchKernel .* span=activity '
expect_count range 16 '^gpu seq='
grep -q 'cudatrace: wrote .*: 21 calls, 0 lost' "$tmp/range.traced.err" ||
    fail "exit summary: $(cat "$tmp/range.traced.err")"
# The report reads the same.
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" summary -f csv "$tmp/range.ctrace" >"$tmp/range.csv" ||
    fail "report summary exit $?"
grep -q ',16,.*,cuLaunchKernel$' "$tmp/range.csv" || fail "summary: $(grep cuLaunchKernel "$tmp/range.csv")"
# ... and says the trace is partial: the summary, info, and the memory report (whose leaks may be frees
# that fell outside the ranges).
ranges='cuProfilerStart..cuProfilerStop ranges only (CUDATRACE_CAPTURE=profiler)'
grep -q "^Calls recorded from,$ranges\$" "$tmp/range.csv" || fail "summary does not say the trace is partial"
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" info -f csv "$tmp/range.ctrace" | grep -q "^Calls recorded from,$ranges\$" ||
    fail "info does not say the trace is partial"
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" info -f csv "$tmp/all.ctrace" | grep -q '^Calls recorded from,every call$' ||
    fail "info of a full trace"
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" summary -f csv "$tmp/all.ctrace" | grep -q '^Calls recorded from' &&
    fail "summary of a full trace says it is partial"
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" memory -f table "$tmp/range.ctrace" | grep -q '^Only capture ranges were recorded' ||
    fail "memory report does not say the trace is partial"
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" memory -f json "$tmp/range.ctrace" | grep -q '"ranges_only":true' ||
    fail "memory report JSON"

export CUDATRACE_CAPTURE=sometimes
run_pair bad "$prog"
expect_count bad 26 "$launch "
[ "$(grep -c 'CUDATRACE_CAPTURE="sometimes" is not all, profiler or nvtx:RANGE\[@DOMAIN\]; using all' "$tmp/bad.traced.err")" = 1 ] ||
    fail "bad value: $(cat "$tmp/bad.traced.err")"
# ... and nothing from a process that never calls the driver.
out=$(LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD CUDATRACE_OUTPUT=$tmp/none.ctrace sh -c 'echo hello' 2>&1)
[ "$out" = hello ] || fail "a program without CUDA: '$out'"

# A library's constructor opens a range before the tracer's constructor runs (capture-early over
# libcapturector): its set-up calls and cuProfilerStart stay out, main's calls in the range are in.
export CUDATRACE_CAPTURE=profiler
run_pair early "$bin/capture-early"
expect_count early 3 '^call .* name=cuCtxSynchronize '
expect_count early 1 '^call .* name=cuProfilerStop '
expect_count early 0 '^call .* name=(cuInit|cuDeviceGet|cuDevicePrimaryCtxRetain|cuCtxSetCurrent|cuProfilerStart) '
grep -q 'cudatrace: wrote .*: 4 calls, 0 lost' "$tmp/early.traced.err" || fail "early: $(cat "$tmp/early.traced.err")"
exit 0
