#!/bin/sh
# GPU time from timing events on the simulated driver's device timeline (tests/integration/gpu-time.c; CUPTI's
# activity records are gpu-activity.sh's): which calls get a span, their durations, sampling, capture left
# alone, contexts destroyed and a process exiting with timings pending, fork, and a context's events running
# out.  SIM_STRICT_HANDLES makes the simulated driver abort on any use of a destroyed event.  Every scenario
# runs untraced and traced with the same output and status.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$bin/gpu-time
export SIM_STRICT_HANDLES=1 SIM_COPY_BYTES_PER_NS=1 CUDATRACE_GPU_TIME=sample

# info NAME FIELD: a field of the dump's last gpu-info record.
info() {
    awk -v k="$2=" '$1 == "gpu-info" { for (i = 2; i <= NF; i++) if (index($i, k) == 1) v = substr($i, length(k) + 1) }
        END { print v }' "$tmp/$1.dump"
}
expect_info() {
    got=$(info "$1" "$2")
    [ "$got" = "$3" ] || fail "$1: gpu-info $2=$got, expected $3"
}
# spans NAME REGEX: the dump's gpu lines that match.
spans() {
    grep -E "^gpu seq=.*$2" "$tmp/$1.dump"
}

# Sampled: one kind of launch (101 calls: the first 8 timed, then calls 40 and 72, which each stand for 32
# calls: span=sampled) and one kind of copy (10 calls: the first 8).  Every span but the first is its call's
# own work on a busy stream.
run_pair steady "$prog" steady
expect_info steady mode sample
expect_info steady source events
expect_info steady request sample
expect_count steady 2 '^gpu seq=.* span=sampled '
expect_count steady 16 '^gpu seq=.* span=none '
expect_info steady n 32
expect_info steady k 8
expect_info steady final 1
expect_count steady 10 '^gpu seq=.* name=cuLaunchKernel .* launch kernel=spin kind=kernel grid=1,1,1 block=1,1,1'
expect_count steady 9 '^gpu seq=.* name=cuLaunchKernel start=[0-9]* dur=50000 '
expect_count steady 8 '^gpu seq=.* name=cuMemcpyHtoDAsync start=[0-9]* dur=4096 .* copy bytes=4096 src_kind=host dst_kind=device'
expect_info steady timed 18
# Each span names its call (in the decoded calls, repeats expanded): the same sequence number, thread, api.
"$ctdump" -t "$tmp/steady.ctrace" >"$tmp/steady.calls" || fail "steady: ctdump -t exit $?"
spans steady . | while read -r _ seq tid name _; do
    grep -q "^file=0 call ${seq} ${tid} ${name} " "$tmp/steady.calls" || fail "steady: no call for span $seq $tid $name"
done || exit 1
# A stream's spans follow each other on the device timeline.
spans steady 'name=cuLaunchKernel ' | sed 's/.* start=\([0-9]*\) dur=\([0-9]*\) .*/\1 \2/' | sort -n |
    awk 'NR > 1 && $1 < end { bad = 1 } { end = $1 + $2 } END { exit bad }' || fail "steady: launch spans overlap"

# 300 kinds of launch in turn, 40 rounds: each kind's first 8 calls and its 40th are timed (8 + 1 in 32 of
# the 32 after them), 2,700 in all, as if each kind were alone on the thread.  Not more, ever; a little less
# when the handles' addresses put nine of the kinds in one set (about 1 run in 2,500: the ninth is then
# timed 1 in 32 without first timings).  A direct-mapped table timed 6,823.
run_pair kinds "$prog" kinds 300 40
timed=$(info kinds timed)
[ "$timed" -le 2700 ] && [ "$timed" -ge 2600 ] || fail "kinds: gpu-info timed=$timed, expected 2,600 to 2,700"
expect_count kinds "$timed" '^gpu seq=.* name=cuLaunchKernel '

# A kind whose first 8 calls are slow (100 us) and the other 312 fast (10 us), behind a 5 ms spin: 8.92 ms of
# GPU time.  The report's estimate weighs each sampled span by the 32 calls it stands for: within 5% of the
# truth (an estimate that weighed the first timings alike would read 16.7 ms for the fast kind alone).
run_pair warmup "$prog" warmup
expect_count warmup 9 '^gpu seq=.* span=sampled '
"$CT_TOP_BUILDDIR/src/report/cudatrace-report" summary -f json -s gpu_kernels "$tmp/warmup.ctrace" >"$tmp/warmup.json" ||
    fail "warmup: summary exit $?"
"$CT_PYTHON3" -c '
import json, sys
row = [r for r in json.load(open(sys.argv[1]))["gpu_kernels"] if r["Name"] == "spin"][0]
est = row["Total Time (ns, est.)"]
assert abs(est - 8920000) <= 0.05 * 8920000 and row["Instances"] == 321, row
' "$tmp/warmup.json" 2>"$tmp/warmup.py.err" || fail "warmup: $(cat "$tmp/warmup.py.err")"

run_pair steady_all env CUDATRACE_GPU_TIME=events "$prog" steady
expect_info steady_all mode all
expect_count steady_all 0 '^gpu seq=.* span=sampled '
expect_info steady_all timed 111
run_pair steady_n1 env CUDATRACE_GPU_SAMPLE=1 "$prog" steady
expect_info steady_n1 timed 111
run_pair steady_off env CUDATRACE_GPU_TIME=off "$prog" steady
expect_count steady_off 0 '^gpu '
expect_info steady_off mode off

# The per-thread default stream keeps its meaning; a call that fails is not timed.
run_pair variants env CUDATRACE_GPU_TIME=events "$prog" variants
expect_count variants 3 '^gpu '
expect_count variants 1 '^gpu seq=.* name=cuLaunchKernel .* stream=0x2 '
expect_count variants 1 '^gpu seq=.* name=cuLaunchKernel .* dur=2000 .* stream=0x0 '
# The per-thread stream was idle: its start event was stamped before the call, and the span starts when the
# call returned (the work cannot start before it was submitted), not earlier.
"$ctdump" -t "$tmp/variants.ctrace" >"$tmp/variants.calls" || fail "variants: ctdump -t exit $?"
set -- $(spans variants 'stream=0x2 ' | sed 's/^gpu seq=\([0-9]*\) .* start=\([0-9]*\) .*/\1 \2/')
call_end=$(sed -n "s/^file=0 call seq=$1 .* t0=\([0-9]*\) dur=\([0-9]*\).*/\1 \2/p" "$tmp/variants.calls" | awk '{ printf "%.0f\n", $1 + $2 }')
[ -n "$call_end" ] && [ "$2" -ge "$call_end" ] || fail "variants: the idle stream's span starts at $2, before its call ended at $call_end"

# No event on a stream being captured (the program checks its graph has only its own 2 nodes); the graph's
# launches are timed as a whole (30 + 20 us).
run_pair capture env CUDATRACE_GPU_TIME=events "$prog" capture
expect_info capture untimed_capture 2
expect_count capture 2 '^gpu seq=.* name=cuGraphLaunch .* launch kernel=[?] kind=graph'
expect_count capture 2 '^gpu seq=.* name=cuGraphLaunch start=[0-9]* dur=50000 '

# Another thread's global-mode capture survives the writer reading events meanwhile (the program exits 1
# if its cuStreamEndCapture fails).
run_pair global env CUDATRACE_GPU_TIME=events CUDATRACE_FLUSH_MS=5 "$prog" global
expect_count global 40 '^gpu seq=.* name=cuLaunchKernel '
expect_info global untimed_capture 1

# Contexts destroyed with a kernel running: a created one, then the primary one at its last release.  Their
# pending timings are counted, their events never touched again; a later context's spans are written.
run_pair destroy env CUDATRACE_GPU_TIME=events "$prog" destroy
expect_info destroy not_completed 2
expect_count destroy 2 '^gpu '
expect_count destroy 1 '^gpu seq=.* dur=3000 '

# Exit with a 3 s kernel running: no wait for it, the timing counted not completed.
start=$(date +%s)
run_pair exit env CUDATRACE_GPU_TIME=events "$prog" exit
[ $(($(date +%s) - start)) -le 2 ] || fail "exit: the traced process waited for its kernel"
expect_info exit not_completed 1
expect_info exit final 1
expect_count exit 0 '^gpu '

# fork: the parent's three spans are in its trace; the child's trace has no span of its parent's.
rm -f "$tmp"/fork-*.ctrace
CUDATRACE_OUTPUT=$tmp/fork-%p.ctrace CUDATRACE_GPU_TIME=events LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
    LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD "$prog" fork 2>"$tmp/fork.err" ||
    fail "fork: exit $? ($(cat "$tmp/fork.err"))"
set -- "$tmp"/fork-*.ctrace
[ $# -eq 2 ] || fail "fork: $# trace files, expected 2"
spans_seen=
for f in "$@"; do
    spans_seen="$spans_seen $("$ctdump" "$f" | grep -c '^gpu ')"
done
case $spans_seen in
" 3 0" | " 0 3") ;;
*) fail "fork: spans per file:$spans_seen, expected 3 and 0" ;;
esac

# More launches pending than a context has timing events (16384 pairs): the rest untimed, one warning.
run_pair exhaust env CUDATRACE_GPU_TIME=events "$prog" exhaust 16500
expect_info exhaust untimed_pool 117
expect_info exhaust not_completed 16384
[ "$(grep -c 'GPU time: every timing event of a context is in use' "$tmp/exhaust.traced.err")" = 1 ] ||
    fail "exhaust: expected one warning, stderr: $(head -c 300 "$tmp/exhaust.traced.err")"
# Programmatic dependent launches are left untimed (an event before one would make it wait for the kernel
# before it); the 10 plain cuLaunchKernelEx calls after them are timed.
CUDATRACE_GPU_TIME=events run_pair pdl "$prog" pdl
expect_count pdl 10 '^gpu seq=.* name=cuLaunchKernelEx '
spans pdl 'name=cuLaunchKernelEx ' | awk '{ print $2 }' >"$tmp/pdl.seqs"
"$ctdump" -t "$tmp/pdl.ctrace" | awk '$5 == "name=cuLaunchKernelEx" { print $3 }' | tail -10 >"$tmp/pdl.plain"
cmp -s "$tmp/pdl.seqs" "$tmp/pdl.plain" || fail "pdl: timed $(tr '\n' ' ' <"$tmp/pdl.seqs"), the plain launches are $(tr '\n' ' ' <"$tmp/pdl.plain")"

# An atexit handler's 5 launches after the last collection: not timed, counted not completed.
CUDATRACE_GPU_TIME=events run_pair atexit "$prog" atexit
expect_count atexit 3 '^gpu seq='
expect_info atexit not_completed 5

echo "gpu-time: all scenarios passed"
