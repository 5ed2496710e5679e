#!/bin/sh
# summary --partial: the summary's state of some files, written to a file that summary reads again, alone,
# with other partials and with traces, giving byte for byte the tables of the traces themselves (every
# format, --by rank, pid and host, --top, the memory table's peaks across processes); the commands that need
# calls refuse a partial; truncated, corrupt, foreign and future partials get the exit codes of such traces.
. "$(dirname "$0")/report-lib.sh"

"$GEN" gpu "$TMP/gpu.ct" && "$GEN" gpuact "$TMP/gpuact.ct" && "$GEN" escapes "$TMP/esc.ct" && mkdir "$TMP/job" "$TMP/big" &&
    "$GEN" files 6 "$TMP/job" && "$GEN" bigranks 3 20000 "$TMP/big" || { echo "report-gen failed" >&2; exit 99; }
J=$TMP/job
B=$TMP/big
set -- "$J"/rank-00000.ctrace "$J"/rank-00001.ctrace "$J"/rank-00002.ctrace "$TMP/parent.ct" "$TMP/child.ct" \
    "$TMP/gpu.ct" "$TMP/esc.ct" "$TMP/gpuact.ct" "$B"/rank-00000.ctrace "$B"/rank-00001.ctrace "$B"/rank-00002.ctrace \
    "$J"/rank-00003.ctrace "$J"/rank-00004.ctrace "$J"/rank-00005.ctrace

# make_partial OUT FILES...
make_partial() {
    out=$1
    shift
    "$REPORT" summary --partial -o "$out" "$@" 2>"$TMP/err" || fail "summary --partial $*: exit $?: $(cat "$TMP/err")"
}
make_partial "$TMP/a.ctpart" "$J"/rank-00000.ctrace "$J"/rank-00001.ctrace "$J"/rank-00002.ctrace "$TMP/parent.ct"
make_partial "$TMP/b.ctpart" "$TMP/child.ct" "$TMP/gpu.ct" "$TMP/esc.ct" # esc.ct: NVTX ranges
make_partial "$TMP/c.ctpart" "$TMP/gpuact.ct" "$B"/rank-00000.ctrace "$B"/rank-00001.ctrace
make_partial "$TMP/d.ctpart" "$B"/rank-00002.ctrace "$J"/rank-00003.ctrace "$J"/rank-00004.ctrace "$J"/rank-00005.ctrace
make_partial "$TMP/all.ctpart" "$@"
make_partial "$TMP/ab.ctpart" "$TMP/a.ctpart" "$TMP/b.ctpart" # a partial of partials

# same_as_traces WHAT ARGS...: summary ARGS of the partials (four ways) prints what summary ARGS of the traces
# does, on one thread, with the same exit status
same_as_traces() {
    what=$1
    shift
    n=$#
    "$REPORT" summary -j 1 "$@" >"$TMP/want" 2>"$TMP/err"
    want_rc=$?
    [ -s "$TMP/want" ] || fail "$what: no output from the traces"
    i=0
    for inputs in "$TMP/a.ctpart $TMP/b.ctpart $TMP/c.ctpart $TMP/d.ctpart" "$TMP/all.ctpart" \
        "$TMP/ab.ctpart $TMP/gpuact.ct $B/rank-00000.ctrace $B/rank-00001.ctrace $TMP/d.ctpart" \
        "$TMP/a.ctpart $TMP/child.ct $TMP/gpu.ct $TMP/esc.ct $TMP/c.ctpart $B/rank-00002.ctrace $J/rank-00003.ctrace $J/rank-00004.ctrace $J/rank-00005.ctrace"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$REPORT" summary -j $((i % 2 + 1)) $ARGS $inputs >"$TMP/got" 2>"$TMP/err"
        rc=$?
        expect_eq "$what (inputs $i): exit status" "$want_rc" "$rc"
        cmp -s "$TMP/want" "$TMP/got" || fail "$what (inputs $i): differs from the traces': $(diff "$TMP/want" "$TMP/got" | head -6)"
    done
}
for args in "-f csv" "-f tsv -u us" "-f json" "-f table" "-f csv --by rank" "-f csv --by pid" "-f json --by host" \
    "-f csv --top 2" "-f csv -s memory" "-f csv -s header,nvtx,api" "-f json -s gpu_kernels,gpu_copies_time,gpu_copies_size"; do
    ARGS=$args
    # shellcheck disable=SC2086
    same_as_traces "summary $args" $args "$@"
done

# A partial of a process also given as a trace (or twice) counts once, as two copies of one trace do.
"$REPORT" summary -f csv "$TMP/parent.ct" >"$TMP/want" 2>/dev/null
run_report 0 summary -f csv "$TMP/parent.ct" "$TMP/a.ctpart"
grep -q "warning: $TMP/parent.ct is given twice: it is read once$" "$TMP/err" ||
    fail "a trace and its partial: $(cat "$TMP/err")"
# ... in either order: the tables (and the header's calls) are those of the partial's files alone.
"$REPORT" summary -f csv -s api,header "$TMP/b.ctpart" 2>/dev/null | grep -v -E '^(Files|Command line|Pids|Hosts),' >"$TMP/want"
for order in "$TMP/b.ctpart $TMP/gpu.ct" "$TMP/gpu.ct $TMP/b.ctpart"; do
    # shellcheck disable=SC2086
    run_report 0 summary -f csv -s api,header $order
    grep -q "warning: $TMP/gpu.ct is given twice: it is read once$" "$TMP/err" || fail "$order: $(cat "$TMP/err")"
    grep -v -E '^(Files|Command line|Pids|Hosts),' "$TMP/out" | cmp -s "$TMP/want" - || fail "a partial and a trace of its ($order): counted twice"
done
run_report 0 summary -f csv -s api "$TMP/b.ctpart" "$TMP/b.ctpart"
[ "$(grep -c 'warning: .* is given twice: it is read once$' "$TMP/err")" = 3 ] ||
    fail "a partial given twice: not one warning per input: $(cat "$TMP/err")"
"$REPORT" summary -f csv -s api "$TMP/child.ct" "$TMP/gpu.ct" "$TMP/esc.ct" >"$TMP/want" 2>/dev/null
cmp -s "$TMP/want" "$TMP/out" || fail "a partial given twice counts twice: $(diff "$TMP/want" "$TMP/out" | head -4)"

# A truncated trace: its partial says so (exit 3) and so does every summary of the partial, with the tables of
# the calls before the damage.
head -c $(($(wc -c <"$TMP/parent.ct") - 7)) "$TMP/parent.ct" >"$TMP/cut.ct" # into its END record
"$REPORT" summary -f csv "$TMP/cut.ct" >"$TMP/want" 2>/dev/null
expect_eq "summary of a truncated trace" 3 "$?"
"$REPORT" summary --partial -o "$TMP/cut.ctpart" "$TMP/cut.ct" 2>/dev/null
expect_eq "summary --partial of a truncated trace" 3 "$?"
run_report 3 summary -f csv "$TMP/cut.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "the partial of a truncated trace: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "warning: .*the report covers the" "$TMP/err" || fail "the partial of a truncated trace: no warning"
# The truncated trace and a partial of the whole one: the partial, holding more records, is read in its place,
# as the whole trace would be.
make_partial "$TMP/parent.ctpart" "$TMP/parent.ct"
head -c $(($(wc -c <"$TMP/parent.ct") / 2)) "$TMP/parent.ct" >"$TMP/cut.ct" # half its calls
"$REPORT" summary -f csv "$TMP/cut.ct" "$TMP/parent.ct" "$TMP/child.ct" >"$TMP/want" 2>/dev/null
expect_eq "a truncated trace and the whole" 3 "$?"
for j in 1 2; do
    run_report 3 summary -j $j -f csv "$TMP/cut.ct" "$TMP/parent.ctpart" "$TMP/child.ct"
    grep -q "are traces of the same process" "$TMP/err" || fail "a truncated trace and the partial of the whole: no warning"
    cmp -s "$TMP/want" "$TMP/out" || fail "a truncated trace and the partial of the whole (-j $j): $(diff "$TMP/want" "$TMP/out" | head -4)"
done

# Damaged partials: exit 3, the rest summarized.  Foreign or future ones, a missing one: exit 2.
size=$(wc -c <"$TMP/a.ctpart")
for cut in 5 20 31 32 100 $((size / 2)) $((size - 1)); do
    head -c "$cut" "$TMP/a.ctpart" >"$TMP/cut.ctpart"
    if [ "$cut" -lt 8 ]; then want=2; else want=3; fi # under 8 bytes: not even the magic (not a trace either)
    run_report $want summary -f csv "$TMP/cut.ctpart"
    [ "$want" = 3 ] && { grep -q "truncated" "$TMP/err" || fail "partial cut at $cut: $(cat "$TMP/err")"; }
done
run_report 3 summary -f csv -s api "$TMP/cut.ctpart" "$TMP/child.ct" "$TMP/gpu.ct"
"$REPORT" summary -f csv -s api "$TMP/child.ct" "$TMP/gpu.ct" >"$TMP/want" 2>/dev/null
cmp -s "$TMP/want" "$TMP/out" || fail "a damaged partial with traces: the traces' tables differ"
for at in 12 20 40 $((size / 2)) $((size - 3)); do
    "$PY" -c 'import sys
p = bytearray(open(sys.argv[1], "rb").read()); p[int(sys.argv[2])] ^= 0x5a
open(sys.argv[3], "wb").write(p)' "$TMP/a.ctpart" "$at" "$TMP/bad.ctpart"
    run_report 3 summary -f csv "$TMP/bad.ctpart"
    grep -q "corrupt" "$TMP/err" || fail "partial with byte $at changed: $(cat "$TMP/err")"
done
"$PY" -c 'import sys, struct, zlib
p = bytearray(open(sys.argv[1], "rb").read())
p[8:12] = struct.pack("<I", 2)
p[28:32] = struct.pack("<I", zlib.crc32(bytes(p[:28])))
open(sys.argv[2], "wb").write(p)' "$TMP/a.ctpart" "$TMP/v2.ctpart"
run_report 2 summary -f csv "$TMP/v2.ctpart"
grep -q "version 2" "$TMP/err" || fail "a version 2 partial: $(cat "$TMP/err")"
printf 'CTPARTS not really\n' >"$TMP/foreign.ctpart"
run_report 2 summary -f csv "$TMP/foreign.ctpart"
run_report 2 summary -f csv "$TMP/a.ctpart" "$TMP/nosuchfile.ctpart"
[ -s "$TMP/out" ] && fail "a missing input: something printed"

# Commands that need calls refuse a partial by name; options that need calls too.
for cmd in calls memory stacks info "export -f csv"; do
    # shellcheck disable=SC2086
    run_report 2 $cmd "$TMP/a.ctpart"
    grep -q "is a summary partial" "$TMP/err" || fail "$cmd of a partial: $(cat "$TMP/err")"
done
run_report 1 summary --range step "$TMP/a.ctpart"
run_report 1 summary --by device "$TMP/a.ctpart"
run_report 1 summary --partial --by rank "$TMP/parent.ct"
run_report 4 summary --partial -o /nonexistent/dir/x.ctpart "$TMP/parent.ct"
run_report 0 summary --help
grep -q -- "--partial" "$TMP/out" || fail "summary --help does not name --partial"
finish
