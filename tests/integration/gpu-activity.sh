#!/bin/sh
# GPU time from CUPTI's activity records, on the simulated driver and its simulated libcupti (beside it in
# tests/simdriver, found there as a real one is found beside a real driver): the default source.  Exact
# durations where timing events read the launch's latency too, graph launches' kernels each a span of their
# call, every span linked to its call, the fallback to timing events when CUPTI is taken (by a tool, or by
# the program before or after the tracer started: the program still gets all its callbacks and records),
# exit with work pending, fork, CUPTI's buffers running out, and what the report makes of it.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
[ -x "$bin/cupti-user" ] || { echo "SKIP: built without CUPTI's headers"; exit 77; }
[ -f "$CT_SIMDRIVER_DIR/libcupti.so.13" ] || { echo "SKIP: no simulated libcupti"; exit 77; }
prog=$bin/gpu-time
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report
export SIM_STRICT_HANDLES=1 SIM_COPY_BYTES_PER_NS=1
unset CUDATRACE_GPU_TIME CUDATRACE_CUPTI CUDA_INJECTION64_PATH

info() {
    awk -v k="$2=" '$1 == "gpu-info" { for (i = 2; i <= NF; i++) if (index($i, k) == 1) v = substr($i, length(k) + 1) }
        END { print v }' "$tmp/$1.dump"
}
expect_info() {
    got=$(info "$1" "$2")
    [ "$got" = "$3" ] || fail "$1: gpu-info $2=$got, expected $3"
}
# durations NAME REGEX: the dur= of the dump's gpu lines that match, one a line.
durations() { grep -E "^gpu seq=.*$2" "$tmp/$1.dump" | sed 's/.* dur=\([0-9]*\) .*/\1/'; }
# linked NAME: every span names a call of the trace (the same sequence number, thread and api).
linked() {
    "$ctdump" -t "$tmp/$1.ctrace" >"$tmp/$1.calls" || fail "$1: ctdump -t exit $?"
    grep '^gpu seq=' "$tmp/$1.dump" | while read -r _ seq tid name _; do
        grep -q "^file=0 call ${seq} ${tid} ${name} " "$tmp/$1.calls" || { echo "no call for $seq $tid $name"; break; }
    done >"$tmp/$1.unlinked"
    [ -s "$tmp/$1.unlinked" ] && fail "$1: $(cat "$tmp/$1.unlinked")"
}
# one_line NAME TEXT: the traced run's stderr has that line exactly once.
one_line() {
    [ "$(grep -c "$2" "$tmp/$1.traced.err")" = 1 ] || fail "$1: expected one '$2' on stderr, got: $(head -c 400 "$tmp/$1.traced.err")"
}

# The default: every launch and copy timed by CUPTI (101 launches, 10 copies), each span its call's, exact.
run_pair steady "$prog" steady
expect_info steady source activity
expect_info steady request auto
expect_info steady why chosen
expect_info steady mode all
expect_info steady timed 111
expect_count steady 111 '^gpu seq=.* span=activity '
expect_count steady 100 '^gpu seq=.* name=cuLaunchKernel start=[0-9]* dur=50000 '
expect_count steady 10 '^gpu seq=.* name=cuMemcpyHtoDAsync start=[0-9]* dur=4096 .* copy bytes=4096 src_kind=host dst_kind=device'
linked steady
grep -q "GPU time" "$tmp/steady.traced.err" && fail "steady: stderr: $(head -c 300 "$tmp/steady.traced.err")"
"$report" info -f csv "$tmp/steady.ctrace" >"$tmp/steady.info" || fail "steady: info exit $?"
grep -q '^GPU time,"CUPTI activity records: every kernel, copy and set"$' "$tmp/steady.info" ||
    fail "steady: info does not name the source: $(grep GPU "$tmp/steady.info")"
"$report" summary -f csv --by device -s gpu_kernels "$tmp/steady.ctrace" >"$tmp/steady.bydev" || fail "steady: --by device exit $?"
grep -q '^# gpu_kernels\[GPU 0\]' "$tmp/steady.bydev" && grep -q ',101,.*,spin$' "$tmp/steady.bydev" ||
    fail "steady: summary --by device: $(head -c 400 "$tmp/steady.bydev")"

# Each launch after its stream drained, its kernel starting 20 us after the call: CUPTI's spans are the
# kernels' 50 us, the events' spans read the latency too.
SIM_LAUNCH_LATENCY_NS=20000 run_pair idle "$prog" idle 20
expect_count idle 20 '^gpu seq=.* name=cuLaunchKernel start=[0-9]* dur=50000 '
SIM_LAUNCH_LATENCY_NS=20000 run_pair idle_events env CUDATRACE_GPU_TIME=events "$prog" idle 20
short=$(durations idle_events 'name=cuLaunchKernel ' | awk '$1 < 65000' | wc -l)
[ "$short" = 0 ] && [ "$(durations idle_events 'name=cuLaunchKernel ' | wc -l)" = 20 ] ||
    fail "idle_events: expected 20 spans of at least 65 us (50 us and most of the 20 us latency), $short shorter"

# A graph of two kernels (30 and 20 us) launched twice: four spans, each its kernel's own, each of its
# cuGraphLaunch call.
run_pair capture "$prog" capture
expect_count capture 4 '^gpu seq=.* name=cuGraphLaunch .* span=graph,activity launch kernel=spin '
expect_count capture 2 '^gpu seq=.* name=cuGraphLaunch start=[0-9]* dur=30000 '
expect_count capture 2 '^gpu seq=.* name=cuGraphLaunch start=[0-9]* dur=20000 '
linked capture
"$report" summary -f csv -s gpu_kernels "$tmp/capture.ctrace" >"$tmp/capture.sum" || fail "capture: summary exit $?"
grep -q ',5,.*,spin$' "$tmp/capture.sum" || fail "capture: gpu_kernels has not the 5 spins: $(cat "$tmp/capture.sum")"

# The program takes CUPTI after 10 timed launches: it gets its 10 callbacks and records, the tracer says so
# once and goes on with timing events.
run_pair late "$bin/cupti-user" late
expect_info late source events
expect_info late why program
expect_count late 10 '^gpu seq=.* span=activity '
one_line late 'the program uses CUPTI'
"$report" info -f csv "$tmp/late.ctrace" | grep -q '^GPU time,"timing events: .*(CUPTI activity until [0-9.]* m\?s into the trace: the program uses CUPTI)"$' ||
    fail "late: info: $("$report" info -f csv "$tmp/late.ctrace" | grep '^GPU')"
# ... with CUDATRACE_GPU_TIME=activity: GPU time stops there, and what CUPTI had recorded of the 10 is kept.
CUDATRACE_GPU_TIME=activity run_pair late_activity "$bin/cupti-user" late
expect_info late_activity source none
expect_info late_activity why program
expect_info late_activity final 1
expect_count late_activity 10 '^gpu seq=.* span=activity '
linked late_activity
# ... only in a forked child: the child's CUPTI is its parent's, not handed over there (no warning), and the
# parent's 20 launches are all timed by CUPTI.
run_pair forked "$bin/cupti-user" fork
grep -q 'GPU time' "$tmp/forked.traced.err" && fail "forked: $(cat "$tmp/forked.traced.err")"
expect_info forked source activity
expect_count forked 20 '^gpu seq=.* span=activity '
# ... before the tracer started: CUPTI is busy, timing events from the start.
run_pair early "$bin/cupti-user" early
expect_info early source events
expect_info early why cupti-busy
expect_count early 0 '^gpu seq=.* span=activity'
one_line early 'GPU time: CUPTI is in use by another tool or by the program'
# ... a tool injected by the driver owns it.
CUDA_INJECTION64_PATH=/opt/tool/libinject.so run_pair injected "$prog" steady
expect_info injected source events
expect_info injected why cupti-busy
one_line injected 'CUDA_INJECTION64_PATH names /opt/tool/libinject.so'
# ... CUPTI only, and none can be loaded: no GPU time, said once.
run_pair nocupti env CUDATRACE_GPU_TIME=activity CUDATRACE_CUPTI=/nonexistent/libcupti.so.13 "$prog" steady
expect_info nocupti mode off
expect_info nocupti source none
expect_info nocupti why no-cupti
expect_count nocupti 0 '^gpu '
one_line nocupti 'CUDATRACE_CUPTI=/nonexistent/libcupti.so.13 does not load'

# Exit with a 3 s kernel running: no wait, its record counted not completed.
start=$(date +%s)
run_pair exit "$prog" exit
[ $(($(date +%s) - start)) -le 2 ] || fail "exit: the traced process waited for its kernel"
expect_info exit not_completed 1
expect_info exit final 1
expect_count exit 0 '^gpu '

# Contexts destroyed with a kernel running: what ran in a later context is timed.
run_pair destroy "$prog" destroy
expect_count destroy 1 '^gpu seq=.* dur=3000 '

# fork: the parent's three spans are in its trace; the child's trace has none, and no warning.
rm -f "$tmp"/fork-*.ctrace
CUDATRACE_OUTPUT=$tmp/fork-%p.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD "$prog" fork \
    2>"$tmp/fork.err" || fail "fork: exit $? ($(cat "$tmp/fork.err"))"
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
grep -q 'GPU time' "$tmp/fork.err" && fail "fork: $(cat "$tmp/fork.err")"

# CUPTI's buffers run out (one record a buffer, the tracer's 32 buffers): the rest are dropped and counted.
SIM_CUPTI_BUFFER_RECORDS=1 run_pair full "$prog" steady
dropped=$(info full dropped) timed=$(info full timed)
[ "$dropped" -gt 0 ] && [ $((dropped + timed)) -eq 111 ] || fail "full: $timed timed and $dropped dropped of 111"
# CUPTI's buffers are given again once read, zeroed by the tracer as it told CUPTI they would be (the simulated
# CUPTI aborts on one that is not): 4 records a buffer, a collection every millisecond, every span kept.
SIM_CUPTI_BUFFER_RECORDS=4 CUDATRACE_FLUSH_MS=1 run_pair reuse "$prog" steady
expect_info reuse timed 111
expect_info reuse dropped 0
linked reuse
# Programmatic dependent launches: CUPTI's records time them as any other (events leave them untimed:
# gpu-time.sh), each span its call's.
run_pair pdl "$prog" pdl
expect_count pdl 20 '^gpu seq=.* name=cuLaunchKernelEx start=[0-9]* dur=10000 .* span=activity '
expect_info pdl no_call 0
linked pdl

# A signal handler's timed calls inside a timed call (each of 20 copies interrupted by a set): every span is
# its own call's, with its own API and stream.
run_pair handler "$prog" handler
expect_count handler 20 '^gpu seq=.* name=cuMemcpyHtoD '
expect_count handler 20 '^gpu seq=.* name=cuMemsetD8Async '
expect_info handler no_call 0
linked handler

# A timer's signal every 200 us during 4,000 copies, its handler queueing a 64-byte set: a handler's call made
# inside the tracer (between a call's return and its end) goes untraced and never takes the interrupted
# call's id (that made sets read as copies, and copies go without a call, a few each run).
run_pair storm "$prog" storm
expect_count storm 4000 '^gpu seq=.* name=cuMemcpyHtoDAsync .* bytes=4096 '
expect_count storm 0 '^gpu seq=.* name=cuMemcpyHtoDAsync .* bytes=64 '

# The collector far behind the launches (each collection 1.5 s late): 200,000 launches' records read after
# their calls' ids went round the old table of 131,072 slots; every span still finds its call.
SIM_CUPTI_FLUSH_DELAY_MS=1500 run_pair behind "$prog" launches 200000
expect_info behind timed 200000
expect_info behind no_call 0
expect_info behind dropped 0

# A thread taken off its CPU between CUPTI's exit callback and filing its call's id (100 ms each time, the
# collector running every millisecond): its records wait for their calls.
SIM_CUPTI_EXIT_DELAY_MS=100 CUDATRACE_FLUSH_MS=1 run_pair preempted "$prog" idle 5
expect_info preempted timed 5
expect_info preempted no_call 0
linked preempted

# CUPTI cannot read its clock: the mapping reads CLOCK_REALTIME (CUPTI's on Linux) instead, so that every
# span still starts after its call began and within a second of it (without a pair, CUPTI's times were taken
# for the trace's).
SIM_CUPTI_NO_TIMESTAMP=1 run_pair noclock "$prog" idle 5
expect_count noclock 5 '^gpu seq=.* dur=50000 '
"$ctdump" -t "$tmp/noclock.ctrace" >"$tmp/noclock.calls" || fail "noclock: ctdump -t exit $?"
bad=$(awk '$2 == "call" { for (i = 3; i <= NF; i++) { if ($i ~ /^seq=/) q = $i; if ($i ~ /^t0=/) t0[q] = substr($i, 4) } }
    $1 == "gpu" && $2 ~ /^seq=/ { for (i = 3; i <= NF; i++) if ($i ~ /^start=/) st = substr($i, 7)
        if (!($2 in t0) || st < t0[$2] || st - t0[$2] > 1000000000) print $2, st, t0[$2] }' \
    "$tmp/noclock.calls" "$tmp/noclock.dump")
[ -z "$bad" ] || fail "noclock: spans not after their calls (seq start call-t0): $bad"

# 5 launches from an atexit handler that runs after the tracer's last collection: recorded, not timed, counted
# not completed (the trace's closing info is written after them).
run_pair atexit "$prog" atexit
expect_count atexit 3 '^gpu seq='
expect_info atexit final 1
expect_info atexit not_completed 5

echo "gpu-activity: all scenarios passed"
