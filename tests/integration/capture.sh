#!/bin/sh
# CUDATRACE_CAPTURE (capture.h): by default every call is recorded; with `profiler`, only the calls from a
# cuProfilerStart to the next cuProfilerStop (that one included), a range left open running to the end.
# Launches inside a range keep their kernel names although the module was loaded outside any range.  A bad
# value is one warning and the default.  tests/samples/profiler_range_drv says what it calls, in order
# (20 calls fall in its ranges: 16 launches, the cuProfilerStop, and the synchronize, unload and release at the end).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$CT_TOP_BUILDDIR/tests/samples/profiler_range_drv
launch='^call .* name=cuLaunchKernel variant=cuLaunchKernel result=0 .* launch kernel=emptyKernel kind=kernel'

run_pair all "$prog"
grep -q '^profiler_range_drv: 26 launches$' "$tmp/all.traced" || fail "profiler_range_drv did not run its launches"
expect_count all 26 "$launch "
for g in 1 2 3 4; do
    expect_count all "$(echo "3 5 7 11" | cut -d' ' -f$g)" "$launch grid=$g,1,1 "
done
expect_count all 2 '^call .* name=cuProfilerStart '
expect_count all 1 '^call .* name=cuProfilerStop '
expect_count all 1 '^call .* name=cuInit '
[ -s "$tmp/all.traced.err" ] && grep -v '^cudatrace: wrote ' "$tmp/all.traced.err" && fail "unexpected stderr"

export CUDATRACE_CAPTURE=profiler
run_pair range "$prog"
expect_count range 16 "$launch "
expect_count range 0 "$launch grid=[13],1,1 "
expect_count range 5 "$launch grid=2,1,1 "
expect_count range 11 "$launch grid=4,1,1 "
expect_count range 0 '^call .* name=cuProfilerStart '
expect_count range 1 '^call .* name=cuProfilerStop '
expect_count range 1 '^call .* name=cuCtxSynchronize '
expect_count range 1 '^call .* name=cuModuleUnload '
expect_count range 0 '^call .* name=(cuInit|cuModuleLoadData|cuModuleGetFunction) '
grep -q 'cudatrace: wrote .*: 20 calls, 0 lost' "$tmp/range.traced.err" ||
    fail "exit summary: $(cat "$tmp/range.traced.err")"
# The report reads the same.
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" summary -f csv "$tmp/range.ctrace" >"$tmp/range.csv" ||
    fail "report summary exit $?"
grep -q ',16,.*,cuLaunchKernel$' "$tmp/range.csv" || fail "summary: $(grep cuLaunchKernel "$tmp/range.csv")"

export CUDATRACE_CAPTURE=sometimes
run_pair bad "$prog"
expect_count bad 26 "$launch "
[ "$(grep -c 'CUDATRACE_CAPTURE="sometimes" is not all or profiler; using all' "$tmp/bad.traced.err")" = 1 ] ||
    fail "bad value: $(cat "$tmp/bad.traced.err")"
exit 0
