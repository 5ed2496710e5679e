#!/bin/sh
# cudatrace-report -j: files read on several threads give what one thread gives, byte for byte, for every
# command, summary's groups and formats; summary -j N merges each file's tables (statistics, kernel shapes,
# GPU estimates, the memory table's peaks across processes) into exactly the tables of the time-ordered merge.
. "$(dirname "$0")/report-lib.sh"

"$GEN" gpu "$TMP/gpu.ct" && "$GEN" gpuact "$TMP/gpuact.ct" && "$GEN" escapes "$TMP/esc.ct" && mkdir "$TMP/job" "$TMP/big" &&
    "$GEN" files 12 "$TMP/job" && "$GEN" bigranks 3 20000 "$TMP/big" || { echo "report-gen failed" >&2; exit 99; }
# Ranks of many small files, processes of one host whose allocations overlap in time (the peak is of their
# sum), rows past the 1024 values kept exactly (histogram medians), GPU tables of both sources, NVTX ranges.
set -- "$TMP"/job/rank-*.ctrace "$TMP/parent.ct" "$TMP/child.ct" "$TMP/gpu.ct" "$TMP/esc.ct" "$TMP/gpuact.ct" \
    "$TMP"/big/rank-*.ctrace

# same_for_jobs WHAT ARGS...: the report's output and messages with -j 2 and -j 5 equal those with -j 1
same_for_jobs() {
    what=$1
    shift
    "$REPORT" "$@" -j 1 >"$TMP/out1" 2>"$TMP/err1"
    rc1=$?
    for j in 2 5; do
        "$REPORT" "$@" -j $j >"$TMP/out$j" 2>"$TMP/err$j"
        rc=$?
        expect_eq "$what: exit status with -j $j" "$rc1" "$rc"
        cmp -s "$TMP/out1" "$TMP/out$j" || fail "$what: -j $j output differs from -j 1: $(diff "$TMP/out1" "$TMP/out$j" | head -5)"
        cmp -s "$TMP/err1" "$TMP/err$j" || fail "$what: -j $j messages differ from -j 1: $(diff "$TMP/err1" "$TMP/err$j" | head -5)"
    done
    [ -s "$TMP/out1" ] || fail "$what: no output"
}

for fmt in csv tsv json table; do
    same_for_jobs "summary -f $fmt" summary -f "$fmt" "$@"
done
for by in rank pid host device; do
    same_for_jobs "summary --by $by" summary -f csv --by "$by" "$@"
done
same_for_jobs "summary -u us --top 3" summary -f json -u us --top 3 "$@"
same_for_jobs "summary -s memory" summary -f csv -s memory "$@"
same_for_jobs "summary --range" summary -f csv --range nothing "$TMP/gpu.ct" "$TMP/parent.ct"
same_for_jobs "calls" calls -f csv "$@"
same_for_jobs "memory" memory -f json "$@"
same_for_jobs "info" info -f csv "$@"
same_for_jobs "export csv" export -f csv "$@"
same_for_jobs "stacks" stacks -f csv "$TMP/parent.ct" "$TMP/child.ct"
# Damaged and missing files: the same messages in the same order, the same exit status.
head -c 3000 "$TMP/parent.ct" >"$TMP/cut.ct"
same_for_jobs "a truncated file" summary -f csv "$TMP"/job/rank-0000*.ctrace "$TMP/cut.ct" "$TMP/child.ct"
"$REPORT" summary -j 2 "$TMP/parent.ct" "$TMP/nosuchfile.ct" >/dev/null 2>"$TMP/err"
expect_eq "a missing file with -j 2: exit status" 2 "$?"
# The memory table sums the processes' allocations over time: its peak must be of the sum, at one time.
run_report 0 summary -j 2 -f json -s memory "$TMP"/big/rank-*.ctrace
py 'import json,sys
m = {r["Kind"]: r for r in json.load(open(sys.argv[1]))["memory"]}
d = m["total on device"]
# each process has one allocation of each of its 4 threads live at once, at the same time as the others
assert d["Allocs"] == 3 * 2500 and d["Peak Bytes"] == 3 * 4 * 4096, d'

run_report 1 summary -j 0 "$TMP/parent.ct"
grep -q -- "--jobs wants a number of threads from 1 to 1024" "$TMP/err" || fail "-j 0: $(cat "$TMP/err")"
for j in x -3; do # one message for every bad value
    run_report 1 summary --jobs=$j "$TMP/parent.ct"
    grep -q -- "--jobs wants a number of threads from 1 to 1024, not '$j'" "$TMP/err" || fail "-j $j: $(cat "$TMP/err")"
done
run_report 0 summary --help
grep -q -- "--jobs=N" "$TMP/out" || fail "summary --help does not name --jobs"
finish
