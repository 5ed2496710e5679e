#!/bin/sh
# CUDATRACE_APIS (recorder/apis.h): an excluded function is counted, not recorded; the count reaches the
# trace, `summary` and `info`.  Names cover every variant; a list that starts with an include records only
# what it includes; later entries win; a bad list or a glob matching nothing is one warning and the
# default.  The launcher's --apis sets it.  Also: copies between allocations the tracer saw cost no driver
# call of its own (the simulated driver counts what it receives: SIM_CALL_COUNTS), nor do host ends it never
# saw pinned (pageable memory); only a unified address it never saw allocated costs one.  tests/integration/apis-calls.c says what it calls.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$bin/apis-calls
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report
n=300

# Default: everything recorded, both variants of cuCtxGetDevice.
run_pair all "$prog" $n
expect_count all $n '^call .* variant=cuCtxGetDevice result='
expect_count all $((n / 2)) '^call .* variant=cuCtxGetDevice_v2 result='
expect_count all 0 '^counted '

# Excluded by function name: both variants, counted exactly, not in the calls listing.
CUDATRACE_APIS=-cuCtxGetDevice run_pair ex "$prog" $n
expect_count ex 0 '^call .* name=cuCtxGetDevice '
expect_count ex 1 "^counted api=cuCtxGetDevice count=$n\$"
expect_count ex 1 "^counted api=cuCtxGetDevice_v2 count=$((n / 2))\$"
expect_count ex 13 '^call .* copy bytes='
[ -s "$tmp/ex.traced.err" ] && grep -v '^cudatrace: wrote ' "$tmp/ex.traced.err" && fail "ex: unexpected stderr"
"$report" calls -f csv "$tmp/ex.ctrace" | grep -q cuCtxGetDevice && fail "calls lists an excluded function"
"$report" summary -f csv "$tmp/ex.ctrace" >"$tmp/ex.csv" || fail "summary exit $?"
grep -q "^\"Calls counted, not timed\",$((n + n / 2))\$" "$tmp/ex.csv" || fail "summary header: $(grep -i counted "$tmp/ex.csv")"
sed -n '/^# api_counted$/,/^$/p' "$tmp/ex.csv" >"$tmp/ex.counted"
grep -q "^$((n + n / 2)),cuCtxGetDevice\$" "$tmp/ex.counted" || fail "api_counted table: $(cat "$tmp/ex.counted")"
sed -n '/^# api$/,/^$/p' "$tmp/ex.csv" | grep -q cuCtxGetDevice && fail "the api table times an excluded function"
"$report" summary -f json -s api "$tmp/ex.ctrace" | tr -d '\n ' |
    grep -q "\"api_counted\":\[{\"NumCalls\":$((n + n / 2)),\"Name\":\"cuCtxGetDevice\"}\]" ||
    fail "summary json: $("$report" summary -f json -s api "$tmp/ex.ctrace" | tail -3)"
"$report" info -f csv "$tmp/ex.ctrace" | grep -q "^$n,\"counted, not timed: cuCtxGetDevice\"\$" || fail "info"

# One variant by its exported name; a later include wins over an earlier exclude.
CUDATRACE_APIS=-cuCtxGetDevice_v2 run_pair v2 "$prog" $n
expect_count v2 $n '^call .* variant=cuCtxGetDevice result='
expect_count v2 1 "^counted api=cuCtxGetDevice_v2 count=$((n / 2))\$"
CUDATRACE_APIS='-cuCtx*,cuCtxGetDevice' run_pair later "$prog" $n
expect_count later $((n + n / 2)) '^call .* name=cuCtxGetDevice '
expect_count later 0 '^call .* name=cuCtxSetCurrent '
expect_count later 1 '^counted api=cuCtxSetCurrent count=1$'

# Bracket expressions: [DP] picks cuCtxGetDevice and not cuCtxGetApiVersion or the rest.
CUDATRACE_APIS='-cuCtxGet[DP]*' run_pair brackets "$prog" $n
expect_count brackets 0 '^call .* name=cuCtxGetDevice '
expect_count brackets 1 "^counted api=cuCtxGetDevice count=$n\$"
[ -s "$tmp/brackets.traced.err" ] && grep -v '^cudatrace: wrote ' "$tmp/brackets.traced.err" && fail "brackets: unexpected stderr"

# Include-only: only the copies are recorded, everything else counted.
CUDATRACE_APIS='cuMemcpy*' run_pair only "$prog" $n
expect_count only 13 '^call '
expect_count only 13 '^call .* name=cuMemcpy'
expect_count only 1 "^counted api=cuCtxGetDevice count=$n\$"
expect_count only 1 '^counted api=cuMemAlloc_v2 count=2$'

# Excluding allocations: allowed, with one warning.
CUDATRACE_APIS=-cuMemAlloc run_pair alloc "$prog" $n
expect_count alloc 1 '^counted api=cuMemAlloc_v2 count=2$'
[ "$(grep -c 'memory report will miss them' "$tmp/alloc.traced.err")" = 1 ] || fail "no warning: $(cat "$tmp/alloc.traced.err")"

# Bad values: one warning each, every call recorded.
for bad in ',' '-' 'cuCtx GetDevice' '-cuNoSuchFunction' 'cu(Ctx)' 'cuCtx[Get' 'cu[]Ctx' 'cu[-a]*'; do
    CUDATRACE_APIS=$bad run_pair bad "$prog" $n
    expect_count bad $n '^call .* variant=cuCtxGetDevice result='
    [ "$(grep -c '^cudatrace: CUDATRACE_APIS' "$tmp/bad.traced.err")" = 1 ] ||
        fail "'$bad': $(cat "$tmp/bad.traced.err")"
done

# The launcher (in the sanitizer build, with the sanitizer runtime preloaded, which it keeps in front).
launcher=$CT_TOP_BUILDDIR/src/launcher/cudatrace
env ${CT_TEST_PRELOAD_PREFIX:+LD_PRELOAD=$CT_TEST_PRELOAD_PREFIX} LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
    CUDATRACE_OUTPUT=$tmp/l.ctrace "$launcher" run --apis=-cuCtxGetDevice "$prog" $n >/dev/null 2>&1 ||
    fail "launcher exit $?"
"$ctdump" "$tmp/l.ctrace" | grep -q "^counted api=cuCtxGetDevice count=$n\$" || fail "launcher --apis"
"$launcher" run --apis='a,,b' true 2>/dev/null && fail "launcher took a bad --apis"
[ $? = 125 ] || fail "launcher: bad --apis exit status"

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
