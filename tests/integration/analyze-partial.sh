#!/bin/sh
# analyze --partial: analyze's state of some files, written to a file that analyze reads again, alone, with
# other analyze partials and with traces, printing byte for byte what analyze of the traces prints (every
# format, options of the map recorded and checked, options of the merge applied); the partials' kinds are
# refused by the other commands; truncated, corrupt, foreign and future partials get the exit codes of such
# traces.  The files: analyze_drv's planted problems (stacks, GPU gaps, leaks, launch loops), two ranks, and
# report-gen's traces (a parent and child, NVTX ranges, control characters, a job's ranks); Python frames from
# the fuzz corpus's traces of py-pystack.py.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SAMPLE=$CT_TOP_BUILDDIR/tests/samples/analyze_drv
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }

# trace RUN NAME VAR...: analyze_drv RUN traced (stacks, GPU time) into $TMP/NAME.ct
trace() {
    run=$1
    name=$2
    shift 2
    env CUDATRACE_OUTPUT="$TMP/$name.ct" CUDATRACE_QUIET=1 CUDATRACE_STACKS=all CUDATRACE_GPU_TIME=events "$@" \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$SAMPLE" "$run" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
        fail "analyze_drv $run failed: $(cat "$TMP/$name.err")"
}
trace sync sync
trace idle idle
trace leak leak
trace launch launch
trace churn churn
trace rank rank0 RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 SIM_KERNEL_NS=1100000
trace rank rank1 RANK=1 LOCAL_RANK=0 WORLD_SIZE=2 SIM_KERNEL_NS=100000 ANALYZE_SLOW=1
"$GEN" gpu "$TMP/gpu.ct" && "$GEN" escapes "$TMP/esc.ct" && mkdir "$TMP/job" && "$GEN" files 3 "$TMP/job" ||
    { echo "report-gen failed" >&2; exit 99; }
J=$TMP/job
S="$TMP/sync.ct $TMP/idle.ct $TMP/leak.ct"
L="$TMP/launch.ct $TMP/churn.ct"
K="$TMP/rank0.ct $TMP/rank1.ct"
G="$TMP/parent.ct $TMP/child.ct $TMP/gpu.ct $TMP/esc.ct $J/rank-00000.ctrace $J/rank-00001.ctrace $J/rank-00002.ctrace"

# make_partial OUT MAPOPTS FILES...: analyze --partial of FILES with the map's options MAPOPTS
make_partial() {
    out=$1
    opts=$2
    shift 2
    # shellcheck disable=SC2086
    "$REPORT" analyze --partial $opts -o "$out" "$@" 2>"$TMP/err" || fail "analyze --partial $*: exit $?: $(cat "$TMP/err")"
}

# same_as_traces MAPOPTS: for each set of merge options, analyze of the partials (five ways) prints what
# analyze of the traces does, with the same exit status
same_as_traces() {
    mo=$1
    # shellcheck disable=SC2086
    make_partial "$TMP/s.ctpart" "$mo" $S
    # shellcheck disable=SC2086
    make_partial "$TMP/l.ctpart" "$mo" $L
    # shellcheck disable=SC2086
    make_partial "$TMP/k.ctpart" "$mo" $K
    # shellcheck disable=SC2086
    make_partial "$TMP/g.ctpart" "$mo" $G
    # shellcheck disable=SC2086
    make_partial "$TMP/all.ctpart" "$mo" $S $L $K $G
    make_partial "$TMP/sl.ctpart" "$mo" "$TMP/s.ctpart" "$TMP/l.ctpart" # a partial of partials
    # shellcheck disable=SC2086
    make_partial "$TMP/idle.ctpart" "$mo" "$TMP/idle.ct"
    for args in "-f csv" "-f tsv -u us" "-f json" "-f table" "-f table --top 1 --min-repeats 5 --leak-bytes 5000" \
        "-f json --min-launches 10 --rank-lead 1 --top 0" "-f table --error-exitcode 9"; do
        # shellcheck disable=SC2086
        "$REPORT" analyze $mo $args $S $L $K $G >"$TMP/want" 2>"$TMP/err"
        want_rc=$?
        [ -s "$TMP/want" ] || fail "analyze $mo $args: no output from the traces: $(cat "$TMP/err")"
        i=0
        for inputs in "$TMP/s.ctpart $TMP/l.ctpart $TMP/k.ctpart $TMP/g.ctpart" "$TMP/all.ctpart" \
            "$TMP/sl.ctpart $K $TMP/g.ctpart" "$TMP/sync.ct $TMP/idle.ctpart $TMP/leak.ct $TMP/l.ctpart $K $G" \
            "$(for f in $S $L $K $G; do printf '%s ' "$f.1.ctpart"; done)"; do
            i=$((i + 1))
            if [ $i = 5 ]; then # one partial per file
                for f in $S $L $K $G; do make_partial "$f.1.ctpart" "$mo" "$f"; done
            fi
            # shellcheck disable=SC2086
            "$REPORT" analyze $args $inputs >"$TMP/got" 2>"$TMP/err"
            rc=$?
            expect_eq "analyze $mo $args (inputs $i): exit status" "$want_rc" "$rc"
            cmp -s "$TMP/want" "$TMP/got" ||
                fail "analyze $mo $args (inputs $i): differs from the traces': $(diff "$TMP/want" "$TMP/got" | head -6)"
        done
    done
}
same_as_traces ""
same_as_traces "--warmup=25 --idle-gap=500us --window=20ms --launch-interval=100us --small-copy=1024"
same_as_traces "--group-by python --step-range=step"

# Traces of the year 2100 (a partial bounds its times, never below the wall clock of this century's end).
mkdir "$TMP/y2100" && REPORT_GEN_START_WALL=4102444800000000000 "$GEN" files 2 "$TMP/y2100" ||
    { echo "report-gen failed" >&2; exit 99; }
make_partial "$TMP/y2100.ctpart" "" "$TMP/y2100/rank-00000.ctrace" "$TMP/y2100/rank-00001.ctrace"
"$REPORT" analyze -f json "$TMP/y2100/rank-00000.ctrace" "$TMP/y2100/rank-00001.ctrace" >"$TMP/want" 2>/dev/null
run_report 0 analyze -f json "$TMP/y2100.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "year 2100: $(diff "$TMP/want" "$TMP/out" | head -4)"

# Python frames in stacks (the fuzz corpus's traces of py-pystack.py), sites by stack and by Python line.
C=$CT_TOP_SRCDIR/tests/fuzz/corpus
for g in stack python; do
    make_partial "$TMP/py.ctpart" "-g $g" "$C/py-stacks.ct"
    make_partial "$TMP/lk.ctpart" "-g $g" "$C/leak-stacks.ct" "$C/ranges.ct"
    for f in json table csv; do
        "$REPORT" analyze -g $g -f $f --min-repeats 1 --top 0 "$C/py-stacks.ct" "$C/leak-stacks.ct" "$C/ranges.ct" \
            >"$TMP/want" 2>/dev/null
        run_report $? analyze -f $f --min-repeats 1 --top 0 "$TMP/py.ctpart" "$TMP/lk.ctpart"
        cmp -s "$TMP/want" "$TMP/out" || fail "Python frames, -g $g -f $f: $(diff "$TMP/want" "$TMP/out" | head -4)"
        if [ $f = table ]; then
            grep -q "#[0-9]* py-pystack.py:[0-9]* " "$TMP/out" || fail "Python frames, -g $g: no Python line in the sites"
        fi
    done
done

# What the partials hold: a finding of each planted rule, the ranks, the peak and who held it.
make_partial "$TMP/all.ctpart" "" $S $L $K $G
run_report 0 analyze -f json "$TMP/all.ctpart"
py '
import json, sys
r = json.load(open(sys.argv[1]))
rules = {f["rule"] for f in r["findings"]}
assert {"sync", "gpu-idle", "leak", "launch-bound", "churn"} <= rules, rules
assert r["peak"]["bytes"] > 0 and r["peak"]["sites"], r
idle = [f for f in r["findings"] if f["rule"] == "gpu-idle"][0]
assert idle["gaps"] and idle["gaps"][0]["launch"]["stack"], idle
'
run_report 0 analyze -f json "$TMP/k.ctpart"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["slowest_rank"] == 1 and [f for f in r["findings"] if f["rule"] == "ranks"], r["ranks"]
'

# The map's options are the partial's: the same again is fine, another is refused naming the partial's.
run_report 0 analyze -f csv --warmup=10 --idle-gap=1ms "$TMP/all.ctpart"
run_report 1 analyze -f csv --warmup=20 "$TMP/all.ctpart"
grep -q "warmup=10%" "$TMP/err" || fail "a conflicting --warmup: $(cat "$TMP/err")"
run_report 1 analyze -f csv --group-by python "$TMP/all.ctpart"
grep -q "group-by=stack" "$TMP/err" || fail "a conflicting --group-by: $(cat "$TMP/err")"
make_partial "$TMP/w20.ctpart" "--warmup=20" "$TMP/sync.ct"
run_report 1 analyze -f csv "$TMP/all.ctpart" "$TMP/w20.ctpart"
grep -q "warmup=20%" "$TMP/err" || fail "partials of two --warmup: $(cat "$TMP/err")"
# ... and a trace given with a partial is analyzed under the partial's (as its own partial would be)
"$REPORT" analyze -f csv --warmup=20 "$TMP/sync.ct" "$TMP/idle.ct" >"$TMP/want" 2>/dev/null
run_report 0 analyze -f csv "$TMP/w20.ctpart" "$TMP/idle.ct"
cmp -s "$TMP/want" "$TMP/out" || fail "a trace with a --warmup=20 partial: $(diff "$TMP/want" "$TMP/out" | head -4)"
run_report 1 analyze --partial -f json -o "$TMP/x.ctpart" "$TMP/sync.ct"
run_report 4 analyze --partial -o /nonexistent/dir/x.ctpart "$TMP/sync.ct"

# Kinds: summary refuses an analyze partial and analyze a summary partial, each naming the command that makes
# the one it reads; the commands that need calls refuse both.
"$REPORT" summary --partial -o "$TMP/sum.ctpart" "$TMP/sync.ct" 2>/dev/null || fail "summary --partial"
run_report 2 summary -f csv "$TMP/all.ctpart"
grep -q "is an analyze partial (analyze --partial).*summary reads partials made by summary --partial" "$TMP/err" ||
    fail "summary of an analyze partial: $(cat "$TMP/err")"
run_report 2 analyze -f csv "$TMP/sum.ctpart"
grep -q "is a summary partial (summary --partial).*analyze reads partials made by analyze --partial" "$TMP/err" ||
    fail "analyze of a summary partial: $(cat "$TMP/err")"
# A partial on standard input: read from files only, which the message says (not "only analyze reads it").
"$REPORT" analyze - <"$TMP/all.ctpart" >"$TMP/out" 2>"$TMP/err"
expect_eq "analyze of a partial on stdin: exit" 2 "$?"
expect_eq "analyze of a partial on stdin" "cudatrace-report: standard input is an analyze partial (analyze --partial): a partial is read from a regular file named on the command line, not from standard input or a pipe" "$(cat "$TMP/err")"
"$REPORT" summary - <"$TMP/sum.ctpart" >"$TMP/out" 2>"$TMP/err"
expect_eq "summary of a partial on stdin: exit" 2 "$?"
grep -q "^cudatrace-report: standard input is a summary partial (summary --partial): a partial is read from a regular file" "$TMP/err" ||
    fail "summary of a partial on stdin: $(cat "$TMP/err")"
for cmd in calls memory stacks info "export -f csv"; do
    # shellcheck disable=SC2086
    run_report 2 $cmd "$TMP/all.ctpart"
    grep -q "is an analyze partial" "$TMP/err" || fail "$cmd of an analyze partial: $(cat "$TMP/err")"
done

# Damaged partials: exit 3; foreign or future ones, a missing one: exit 2.
make_partial "$TMP/a.ctpart" "" "$TMP/idle.ct" "$TMP/leak.ct"
size=$(wc -c <"$TMP/a.ctpart")
for cut in 20 31 32 100 $((size / 2)) $((size - 1)); do
    head -c "$cut" "$TMP/a.ctpart" >"$TMP/cut.ctpart"
    run_report 3 analyze -f csv "$TMP/cut.ctpart"
    grep -q "truncated" "$TMP/err" || fail "partial cut at $cut: $(cat "$TMP/err")"
done
for at in 12 20 40 $((size / 3)) $((size / 2)) $((size - 3)); do
    "$PY" -c 'import sys
p = bytearray(open(sys.argv[1], "rb").read()); p[int(sys.argv[2])] ^= 0x5a
open(sys.argv[3], "wb").write(p)' "$TMP/a.ctpart" "$at" "$TMP/bad.ctpart"
    run_report 3 analyze -f csv "$TMP/bad.ctpart"
    grep -q "corrupt" "$TMP/err" || fail "partial with byte $at changed: $(cat "$TMP/err")"
done
"$PY" -c 'import sys, struct, zlib
p = bytearray(open(sys.argv[1], "rb").read())
p[8:12] = struct.pack("<I", 2)
p[28:32] = struct.pack("<I", zlib.crc32(bytes(p[:28])))
open(sys.argv[2], "wb").write(p)' "$TMP/a.ctpart" "$TMP/v2.ctpart"
run_report 2 analyze -f csv "$TMP/v2.ctpart"
grep -q "version 2" "$TMP/err" || fail "a version 2 partial: $(cat "$TMP/err")"
# a body whose checksum holds but whose content is wrong (a faulty writer): corrupt, exit 3
"$PY" -c 'import sys, struct, zlib
p = bytearray(open(sys.argv[1], "rb").read())
body = p[32:] + b"\0"
p = p[:32] + body
p[16:24] = struct.pack("<Q", len(body))
p[24:28] = struct.pack("<I", zlib.crc32(bytes(body)))
p[28:32] = struct.pack("<I", zlib.crc32(bytes(p[:28])))
open(sys.argv[2], "wb").write(p)' "$TMP/a.ctpart" "$TMP/faulty.ctpart"
run_report 3 analyze -f csv "$TMP/faulty.ctpart"
grep -q "faulty writer" "$TMP/err" || fail "a faulty partial: $(cat "$TMP/err")"
printf 'CTANPT\r\n not really' >"$TMP/foreign.ctpart"
run_report 3 analyze -f csv "$TMP/foreign.ctpart"
printf 'CTANPU not really\n' >"$TMP/foreign.ctpart"
run_report 2 analyze -f csv "$TMP/foreign.ctpart"
run_report 2 analyze -f csv "$TMP/a.ctpart" "$TMP/nosuchfile.ctpart"
[ -s "$TMP/out" ] && fail "a missing input: something printed"
# A damaged partial among other inputs is left out whole: the rest is analyzed, exit 3.
"$REPORT" analyze -f json "$TMP/sync.ct" >"$TMP/want" 2>/dev/null
run_report 3 analyze -f json "$TMP/cut.ctpart" "$TMP/sync.ct"
cmp -s "$TMP/want" "$TMP/out" || fail "a damaged partial and a trace: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "truncated" "$TMP/err" || fail "a damaged partial and a trace: $(cat "$TMP/err")"
# A payload changed where the memory changes lie (each of its last 160 bytes in turn made 0xfe, a kind no
# change has), its checksums made to hold (a faulty writer): the reader finds it out, names the partial and
# leaves it out whole; the trace given with it is analyzed.
"$REPORT" analyze -f json "$TMP/sync.ct" >"$TMP/want" 2>/dev/null
make_partial "$TMP/m.ctpart" "" "$TMP/leak.ct"
mkdir "$TMP/mbad"
"$PY" -c 'import sys, struct, zlib
src = open(sys.argv[1], "rb").read()
for at in range(max(32, len(src) - 160), len(src)):
    p = bytearray(src)
    if p[at] == 0xfe:
        continue
    p[at] = 0xfe
    p[24:28] = struct.pack("<I", zlib.crc32(bytes(p[32:])))
    p[28:32] = struct.pack("<I", zlib.crc32(bytes(p[:28])))
    open("%s/%d.ctpart" % (sys.argv[2], at), "wb").write(p)' "$TMP/m.ctpart" "$TMP/mbad"
found=0
for bad in "$TMP"/mbad/*.ctpart; do
    "$REPORT" analyze -f json "$bad" "$TMP/sync.ct" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    case $rc in
    0) ;; # still well formed (a size, a time)
    3) found=$((found + 1))
       grep -q "$bad: corrupt analyze partial" "$TMP/err" || fail "$bad: $(cat "$TMP/err")"
       cmp -s "$TMP/want" "$TMP/out" || fail "$bad: the trace beside it not analyzed alone: $(head -c 300 "$TMP/out")" ;;
    *) fail "$bad: exit $rc: $(cat "$TMP/err")" ;;
    esac
done
[ "$found" -gt 0 ] || fail "no change of the memory changes was found out"
# A partial of a truncated trace says what the trace's reader said, and exits 3, whenever it is read.
size=$(wc -c <"$TMP/leak.ct")
head -c $((size * 2 / 3)) "$TMP/leak.ct" >"$TMP/leakcut.ct"
"$REPORT" analyze -f json "$TMP/leakcut.ct" >"$TMP/want" 2>"$TMP/wanterr"
expect_eq "analyze of a truncated trace: exit status" 3 $?
"$REPORT" analyze --partial -o "$TMP/leakcut.ctpart" "$TMP/leakcut.ct" 2>"$TMP/err"
expect_eq "analyze --partial of a truncated trace: exit status" 3 $?
run_report 3 analyze -f json "$TMP/leakcut.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "a partial of a truncated trace: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "the report covers the" "$TMP/err" || fail "a partial of a truncated trace: no warning: $(cat "$TMP/err")"
# A process given twice (two partials holding it, or a partial and its trace) counts once, with a warning.
make_partial "$TMP/s0.ctpart" "" $S
# shellcheck disable=SC2086
"$REPORT" analyze -f json $S >"$TMP/want" 2>/dev/null
for twice in "$TMP/s0.ctpart $TMP/s0.ctpart" "$TMP/s0.ctpart $TMP/sync.ct" "$TMP/sync.ct $TMP/s0.ctpart"; do
    # shellcheck disable=SC2086
    run_report 0 analyze -f json $twice
    cmp -s "$TMP/want" "$TMP/out" || fail "given twice ($twice): $(diff "$TMP/want" "$TMP/out" | head -4)"
    # The same path each time (the partial names the trace it read): not "X and X are traces of ...".
    grep -q "warning: $TMP/sync.ct is given twice: it is read once$" "$TMP/err" ||
        fail "given twice ($twice): $(cat "$TMP/err")"
done
# The fuller copy of a process given twice takes the first copy's place, traces or partials alike: a cut
# copy of rank 0 first, rank 1, then rank 0 whole.
mkdir "$TMP/br" && "$GEN" bigranks 2 2000 "$TMP/br" || { echo "report-gen failed" >&2; exit 99; }
size=$(wc -c <"$TMP/br/rank-00000.ctrace")
head -c $((size * 2 / 3)) "$TMP/br/rank-00000.ctrace" >"$TMP/br/cut0.ct"
cp "$TMP/br/rank-00000.ctrace" "$TMP/br/whole0.ct"
"$REPORT" analyze -f json "$TMP/br/cut0.ct" "$TMP/br/rank-00001.ctrace" "$TMP/br/whole0.ct" >"$TMP/want" 2>/dev/null
want_rc=$?
for f in cut0.ct rank-00001.ctrace whole0.ct; do
    "$REPORT" analyze --partial -o "$TMP/br/$f.ctpart" "$TMP/br/$f" 2>/dev/null
done
for inputs in "$TMP/br/cut0.ct.ctpart $TMP/br/rank-00001.ctrace.ctpart $TMP/br/whole0.ct.ctpart" \
    "$TMP/br/cut0.ct $TMP/br/rank-00001.ctrace.ctpart $TMP/br/whole0.ct.ctpart" \
    "$TMP/br/cut0.ct.ctpart $TMP/br/rank-00001.ctrace $TMP/br/whole0.ct"; do
    # shellcheck disable=SC2086
    run_report "$want_rc" analyze -f json $inputs
    cmp -s "$TMP/want" "$TMP/out" || fail "copies of rank 0 ($inputs): $(diff "$TMP/want" "$TMP/out" | head -4)"
done
# A trace with a time a partial cannot hold (2^60 ns from boot: corrupt) is left out of the partial, said,
# exit 3; the partial holds the other file and reads back as analyze of that file alone, saying again what
# was left out, exit 3 (and so does a partial made of it).
"$GEN" late "$TMP/late.ct" || { echo "report-gen failed" >&2; exit 99; }
"$REPORT" analyze -f json "$TMP/gpu.ct" >"$TMP/want" 2>/dev/null
run_report 3 analyze --partial -o "$TMP/late.ctpart" "$TMP/late.ct" "$TMP/gpu.ct"
grep -q "warning: $TMP/late.ct is left out of the partial: a call's time is out of the range a partial holds" \
    "$TMP/err" || fail "a time past a partial's range: $(cat "$TMP/err")"
left_out="warning: $TMP/late.ct is left out of the partial: a call's time is out of the range a partial holds"
run_report 3 analyze -f json "$TMP/late.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "the partial without the late trace: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "$left_out" "$TMP/err" || fail "the partial read back does not say what it left out: $(cat "$TMP/err")"
run_report 3 analyze --partial -o "$TMP/late2.ctpart" "$TMP/late.ctpart"
run_report 3 analyze -f json "$TMP/late2.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "a partial of that partial: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "$left_out" "$TMP/err" || fail "a partial of that partial does not say what was left out: $(cat "$TMP/err")"
# A good copy of the same process beside it (only its first launch): the copy the partial can hold is the
# one kept, whichever is given first.
"$GEN" early "$TMP/early.ct" || { echo "report-gen failed" >&2; exit 99; }
"$REPORT" analyze -f json "$TMP/early.ct" >"$TMP/want" 2>/dev/null
run_report 0 analyze --partial -o "$TMP/early.ctpart" "$TMP/early.ct"
for inputs in "$TMP/early.ctpart $TMP/late.ct" "$TMP/late.ct $TMP/early.ctpart"; do
    # shellcheck disable=SC2086
    run_report 3 analyze --partial -o "$TMP/both.ctpart" $inputs
    grep -q "warning: $TMP/late.ct is left out of the partial" "$TMP/err" || fail "$inputs: $(cat "$TMP/err")"
    run_report 0 analyze -f json "$TMP/both.ctpart"
    cmp -s "$TMP/want" "$TMP/out" || fail "$inputs: the good copy is not kept: $(diff "$TMP/want" "$TMP/out" | head -4)"
done
"$REPORT" analyze -f json "$TMP/gpu.ct" >"$TMP/want" 2>/dev/null
# The same process whose END only is out of range: its start still matches the good copy's, which is kept.
"$GEN" lateend "$TMP/lateend.ct" || { echo "report-gen failed" >&2; exit 99; }
"$REPORT" analyze -f json "$TMP/early.ct" >"$TMP/want" 2>/dev/null
run_report 3 analyze --partial -o "$TMP/lateend.ctpart" "$TMP/lateend.ct"
grep -q "warning: $TMP/lateend.ct is left out of the partial: its start or end is out of the range" "$TMP/err" ||
    fail "an END past a partial's range: $(cat "$TMP/err")"
run_report 3 analyze --partial -o "$TMP/both.ctpart" "$TMP/lateend.ctpart" "$TMP/early.ctpart"
grep -q "same process" "$TMP/err" || fail "the END past range is not taken for the same process: $(cat "$TMP/err")"
run_report 0 analyze -f json "$TMP/both.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "the END past range and the good copy: $(diff "$TMP/want" "$TMP/out" | head -4)"
"$REPORT" analyze -f json "$TMP/gpu.ct" >"$TMP/want" 2>/dev/null
# The late trace also truncated: the partial says both what the reader said and why it left the trace out.
{ cat "$TMP/late.ct"; printf 'abc'; } >"$TMP/latecut.ct"
run_report 3 analyze --partial -o "$TMP/latecut.ctpart" "$TMP/latecut.ct" "$TMP/gpu.ct"
run_report 3 analyze -f json "$TMP/latecut.ctpart"
cmp -s "$TMP/want" "$TMP/out" || fail "the late, truncated trace's partial: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "left out of the partial: a call's time .*; and $TMP/latecut.ct: truncated at byte" "$TMP/err" ||
    fail "the partial does not say both why: $(cat "$TMP/err")"
# A trace cut within its first record (nothing of it read) takes no part: analyze says so and reads the rest.
head -c 80 "$TMP/early.ct" >"$TMP/first.ct"
run_report 3 analyze -f json "$TMP/first.ct" "$TMP/gpu.ct"
cmp -s "$TMP/want" "$TMP/out" || fail "a trace of no record beside gpu.ct: $(diff "$TMP/want" "$TMP/out" | head -4)"
run_report 3 analyze --partial -o "$TMP/first.ctpart" "$TMP/first.ct"
run_report 3 analyze -f json "$TMP/first.ctpart" "$TMP/gpu.ct"
cmp -s "$TMP/want" "$TMP/out" || fail "its partial beside gpu.ct: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "first.ct: truncated at byte .*; nothing of it is analyzed" "$TMP/err" || fail "its partial: $(cat "$TMP/err")"
# The late trace alone: a partial of no file but what it left out, which reads back as nothing (saying
# what was left out), first or beside a trace.
run_report 3 analyze --partial -o "$TMP/none.ctpart" "$TMP/late.ct"
run_report 3 analyze -f json "$TMP/none.ctpart" "$TMP/gpu.ct"
cmp -s "$TMP/want" "$TMP/out" || fail "a partial of no file and a trace: $(diff "$TMP/want" "$TMP/out" | head -4)"
grep -q "$left_out" "$TMP/err" || fail "a partial of no file does not say what it left out: $(cat "$TMP/err")"
run_report 3 analyze -f csv "$TMP/none.ctpart"
[ "$(cat "$TMP/out")" = "Rule,Where,Lost (ns),Lost %,Evidence,Site,Range,Stack,Fix" ] ||
    fail "a partial of no file: $(cat "$TMP/out")"
run_report 0 analyze --help
grep -q -- "--partial" "$TMP/out" || fail "analyze --help does not name --partial"
finish
