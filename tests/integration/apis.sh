#!/bin/sh
# Functions counted, not timed (recorder/apis.h).  By default the trivial queries of
# src/preload/counted_by_default.txt: cuCtxGetDevice is counted exactly, both variants, and has no call
# record, but a call that fails is recorded with its result (so is one of any counted function); the header,
# `info` and `summary` say which set applied.  CUDATRACE_APIS=all (the launcher's --trace-all-apis) times
# every function; a list replaces the default set: names cover every variant, a list that starts with an
# include times only what it includes, later entries win, a bad list or a glob matching nothing is one
# warning and the default set.  The launcher's --apis sets it.  Also: copies between allocations the tracer
# saw cost no driver call of its own (the simulated driver counts what it receives: SIM_CALL_COUNTS), nor do
# host ends it never saw pinned (pageable memory); only a unified address it never saw allocated costs one.
# tests/integration/apis-calls.c says what it calls.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$bin/apis-calls
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report
n=300

# features NAME: the trace header's CT_FEAT_APIS_* bits (format.h: 0x10 the default set, 0x20 a list).
features() { echo $(($(sed -n 's/^header .* features=\(0x[0-9a-f]*\)$/\1/p' "$tmp/$1.dump") & 0x30)); }
# counted_set NAME: info's row saying which functions were counted, not timed.
counted_set() { "$report" info -f csv "$tmp/$1.ctrace" | sed -n 's/^"Functions counted, not timed",//p'; }
# The two calls of apis-calls that fail: a cuCtxGetDevice and a cuDeviceGetAttribute, both INVALID_VALUE (1).
failed='^call .* variant=(cuCtxGetDevice|cuDeviceGetAttribute) result=1 '

# Default: the trivial queries counted, both variants of cuCtxGetDevice exactly; none of their successful calls
# recorded; the two that fail recorded with their result, at the time of their return (t0 = t1).
run_pair default "$prog" $n
expect_count default 0 '^call .* name=cuCtxGetDevice .*result=0 '
expect_count default 1 "^counted api=cuCtxGetDevice count=$n\$"
expect_count default 1 "^counted api=cuCtxGetDevice_v2 count=$((n / 2))\$"
expect_count default 2 "$failed"
expect_count default 2 "${failed}t0=[0-9]* dur=0( |\$)"
expect_count default 0 '^call .* name=cuDeviceGet .*result=0 '
expect_count default 13 '^call .* copy bytes='
[ "$(features default)" = 16 ] || fail "default: header features $(features default), expected 0x10"
[ "$(counted_set default)" = "the default set of trivial queries" ] || fail "default: info says '$(counted_set default)'"
[ -s "$tmp/default.traced.err" ] && grep -v '^cudatrace: wrote ' "$tmp/default.traced.err" && fail "default: unexpected stderr"
"$report" summary -f csv "$tmp/default.ctrace" >"$tmp/default.csv" || fail "summary exit $?"
grep -q '^"Functions counted, not timed",the default set of trivial queries$' "$tmp/default.csv" ||
    fail "summary header: $(grep -i 'Functions counted' "$tmp/default.csv")"
sed -n '/^# api_counted$/,/^$/p' "$tmp/default.csv" >"$tmp/default.counted"
grep -q "^$((n + n / 2)),cuCtxGetDevice\$" "$tmp/default.counted" || fail "api_counted table: $(cat "$tmp/default.counted")"
sed -n '/^# errors$/,/^$/p' "$tmp/default.csv" >"$tmp/default.errors"
for f in cuCtxGetDevice cuDeviceGetAttribute; do
    grep -q "^1,1,CUDA_ERROR_INVALID_VALUE,$f\$" "$tmp/default.errors" || fail "errors table: $(cat "$tmp/default.errors")"
done

# Every function timed: CUDATRACE_APIS=all (any case), as nsys --cuda-trace-all-apis.
CUDATRACE_APIS=All run_pair all "$prog" $n
expect_count all $n '^call .* variant=cuCtxGetDevice result=0 '
expect_count all $((n / 2)) '^call .* variant=cuCtxGetDevice_v2 result=0 '
expect_count all 2 "$failed"
expect_count all 0 '^counted '
[ "$(features all)" = 0 ] || fail "all: header features $(features all), expected neither bit"
[ "$(counted_set all)" = "none: every function timed" ] || fail "all: info says '$(counted_set all)'"

# Excluded by function name: a list replaces the default set (cuDeviceGet is timed again), both variants
# counted exactly, not in the calls listing but for the call that failed.
CUDATRACE_APIS=-cuCtxGetDevice run_pair ex "$prog" $n
expect_count ex 0 '^call .* name=cuCtxGetDevice .*result=0 '
expect_count ex 1 "^counted api=cuCtxGetDevice count=$n\$"
expect_count ex 1 "^counted api=cuCtxGetDevice_v2 count=$((n / 2))\$"
expect_count ex 2 '^counted '
expect_count ex 2 "$failed"
expect_count ex 1 '^call .* name=cuDeviceGet .*result=0 '
expect_count ex 13 '^call .* copy bytes='
[ "$(features ex)" = 32 ] || fail "ex: header features $(features ex), expected 0x20"
[ "$(counted_set ex)" = "those CUDATRACE_APIS listed" ] || fail "ex: info says '$(counted_set ex)'"
[ -s "$tmp/ex.traced.err" ] && grep -v '^cudatrace: wrote ' "$tmp/ex.traced.err" && fail "ex: unexpected stderr"
[ "$("$report" calls -f csv "$tmp/ex.ctrace" | grep -c cuCtxGetDevice)" = 1 ] ||
    fail "calls lists successful calls of an excluded function"
"$report" summary -f csv "$tmp/ex.ctrace" >"$tmp/ex.csv" || fail "summary exit $?"
grep -q "^\"Calls counted, not timed\",$((n + n / 2))\$" "$tmp/ex.csv" || fail "summary header: $(grep -i counted "$tmp/ex.csv")"
sed -n '/^# api_counted$/,/^$/p' "$tmp/ex.csv" >"$tmp/ex.counted"
grep -q "^$((n + n / 2)),cuCtxGetDevice\$" "$tmp/ex.counted" || fail "api_counted table: $(cat "$tmp/ex.counted")"
sed -n '/^# api$/,/^$/p' "$tmp/ex.csv" | grep -q ',1,.*,cuCtxGetDevice$' || fail "the api table: not the one failed call"
"$report" summary -f json -s api "$tmp/ex.ctrace" | tr -d '\n ' |
    grep -q "\"api_counted\":\[{\"NumCalls\":$((n + n / 2)),\"Name\":\"cuCtxGetDevice\"}\]" ||
    fail "summary json: $("$report" summary -f json -s api "$tmp/ex.ctrace" | tail -3)"
"$report" info -f csv "$tmp/ex.ctrace" | grep -q "^$n,\"counted, not timed: cuCtxGetDevice\"\$" || fail "info"

# One variant by its exported name; a later include wins over an earlier exclude.
CUDATRACE_APIS=-cuCtxGetDevice_v2 run_pair v2 "$prog" $n
expect_count v2 $n '^call .* variant=cuCtxGetDevice result=0 '
expect_count v2 1 "^counted api=cuCtxGetDevice_v2 count=$((n / 2))\$"
CUDATRACE_APIS='-cuCtx*,cuCtxGetDevice' run_pair later "$prog" $n
expect_count later $((n + n / 2)) '^call .* name=cuCtxGetDevice .*result=0 '
expect_count later 0 '^call .* name=cuCtxSetCurrent '
expect_count later 1 '^counted api=cuCtxSetCurrent count=1$'

# Bracket expressions: [DP] picks cuCtxGetDevice and not cuCtxGetApiVersion or the rest.
CUDATRACE_APIS='-cuCtxGet[DP]*' run_pair brackets "$prog" $n
expect_count brackets 0 '^call .* name=cuCtxGetDevice .*result=0 '
expect_count brackets 1 "^counted api=cuCtxGetDevice count=$n\$"
[ -s "$tmp/brackets.traced.err" ] && grep -v '^cudatrace: wrote ' "$tmp/brackets.traced.err" && fail "brackets: unexpected stderr"

# Include-only: only the copies are timed, everything else counted; the three calls that fail (the two
# queries, and a cuMemHostUnregister whose hook still runs: the five copies from pinned memory below) recorded.
CUDATRACE_APIS='cuMemcpy*' run_pair only "$prog" $n
expect_count only 16 '^call '
expect_count only 13 '^call .* name=cuMemcpy.*result=0 '
expect_count only 2 "$failed"
expect_count only 1 '^call .* name=cuMemHostUnregister .*result=[1-9]'
expect_count only 1 "^counted api=cuCtxGetDevice count=$n\$"
expect_count only 1 '^counted api=cuMemAlloc_v2 count=2$'
[ "$(grep -c "^call .* copy bytes=[0-9]* src_kind=pinned dst_kind=device " "$tmp/only.dump")" = 5 ] ||
    fail "only: the pinned memory's map lost the failed unregister"

# Excluding allocations: allowed, with one warning.
CUDATRACE_APIS=-cuMemAlloc run_pair alloc "$prog" $n
expect_count alloc 1 '^counted api=cuMemAlloc_v2 count=2$'
[ "$(grep -c 'memory report will miss them' "$tmp/alloc.traced.err")" = 1 ] || fail "no warning: $(cat "$tmp/alloc.traced.err")"

# Bad values: one warning each, and the default set.
for bad in ',' '-' 'cuCtx GetDevice' '-cuNoSuchFunction' 'cu(Ctx)' 'cuCtx[Get' 'cu[]Ctx' 'cu[-a]*' 'all,-cuInit'; do
    CUDATRACE_APIS=$bad run_pair bad "$prog" $n
    expect_count bad 1 "^counted api=cuCtxGetDevice count=$n\$"
    expect_count bad 0 '^call .* name=cuCtxGetDevice .*result=0 '
    [ "$(features bad)" = 16 ] || fail "'$bad': header features $(features bad), expected 0x10"
    [ "$(grep -c '^cudatrace: CUDATRACE_APIS.*; using the default$' "$tmp/bad.traced.err")" = 1 ] ||
        fail "'$bad': $(cat "$tmp/bad.traced.err")"
done

# The launcher (in the sanitizer build, with the sanitizer runtime preloaded, which it keeps in front).
launcher=$CT_TOP_BUILDDIR/src/launcher/cudatrace
launch() {
    env ${CT_TEST_PRELOAD_PREFIX:+LD_PRELOAD=$CT_TEST_PRELOAD_PREFIX} LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
        CUDATRACE_OUTPUT=$tmp/$1.ctrace "$launcher" run "$2" "$prog" $n >/dev/null 2>&1 || fail "launcher $2: exit $?"
    "$ctdump" "$tmp/$1.ctrace" >"$tmp/$1.dump" || fail "$1: ctdump exit $?"
}
launch l --apis=-cuCtxGetDevice
expect_count l 1 "^counted api=cuCtxGetDevice count=$n\$"
launch lall --trace-all-apis
expect_count lall $n '^call .* variant=cuCtxGetDevice result=0 '
expect_count lall 0 '^counted '
"$launcher" run --apis='a,,b' true 2>/dev/null && fail "launcher took a bad --apis"
[ $? = 125 ] || fail "launcher: bad --apis exit status"
"$launcher" run --apis=-cuInit --trace-all-apis true 2>/dev/null && fail "launcher took --apis and --trace-all-apis"
[ $? = 125 ] || fail "launcher: --apis with --trace-all-apis exit status"

# The tracer's own driver calls: none for copies between tracked allocations or from and to pageable memory
# the name calls host memory, one for the unified address of pageable memory (cuMemcpy).
SIM_CALL_COUNTS=$tmp/plain.counts LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$prog" 10 >/dev/null || fail "count untraced"
SIM_CALL_COUNTS=$tmp/traced.counts CUDATRACE_OUTPUT=$tmp/c.ctrace CUDATRACE_GPU_TIME=off LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
    LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD "$prog" 10 >/dev/null 2>&1 || fail "count traced"
count() { awk -v f="$2" '$1 == f { print $2; found = 1 } END { if (!found) print 0 }' "$tmp/$1.counts"; }
[ "$(count plain cuPointerGetAttributes)" = 0 ] || fail "the program itself asks cuPointerGetAttributes"
[ "$(count traced cuPointerGetAttributes)" = 1 ] ||
    fail "traced: $(count traced cuPointerGetAttributes) cuPointerGetAttributes, expected 1 (cuMemcpy's pageable end)"
"$ctdump" "$tmp/c.ctrace" >"$tmp/c.dump"
for kinds in 'src_kind=pinned dst_kind=device' 'src_kind=device dst_kind=device' 'src_kind=device dst_kind=pinned' \
    'src_kind=managed dst_kind=device' 'src_kind=device dst_kind=managed' 'src_kind=host dst_kind=device' \
    'src_kind=device dst_kind=host'; do
    grep -q "copy bytes=[0-9]* $kinds " "$tmp/c.dump" || fail "no copy with $kinds: $(grep 'copy bytes' "$tmp/c.dump")"
done
# Five copies from pinned memory, two of them after a release that was not the last and a failed unregister.
[ "$(grep -c "copy bytes=[0-9]* src_kind=pinned dst_kind=device " "$tmp/c.dump")" = 5 ] ||
    fail "pinned to device copies: $(grep -c "src_kind=pinned dst_kind=device" "$tmp/c.dump"), expected 5"
exit 0
