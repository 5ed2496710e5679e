# SIGTERM while the program runs: the trace is complete and readable, and the program still dies of SIGTERM.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_FLUSH_MS=10000 "$APP" -t 2 -n 5000 -w ready 2>stderr &
pid=$!
i=0
while [ ! -f ready ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -f ready ] || fail "app never got ready"
kill -TERM $pid
wait $pid
expect "exit status" 143 "$?"
set -- cudatrace-*.ctrace
dump "$1"
# The writer's interval is 10 s: these records reached the file through the signal handler's flush.
expect "calls" 10000 "$(calls "$1")"
expect "end calls" 10000 "$(end_field "$1" calls)"
grep -q "^cudatrace: wrote $1: 10000 calls, 0 lost\$" stderr || fail "summary line: $(cat stderr)"

# A handler the program installed before tracing started (at its first record) is wrapped, not altered: its
# flags (no SA_RESTART: its system calls are interrupted) and its mask stay as the program set them.
"$APP" -H -n 10 2>stderr
expect "SIGHUP disposition of the program kept (exit status)" 0 "$?"

# SIGTERM while the writer is stuck in the middle of a write (a stalled disk; stall-writer.c): the handler
# does not wait on it for long, cuts the file back to the last whole record, and ends it with a LOST record
# (reason shutdown) counting what was not written, and END.  Made = in the file + lost.
stall=$CT_TOP_BUILDDIR/tests/integration/.libs/libstallwriter.so
[ -f "$stall" ] || fail "$stall not built"
mkdir stalled && cd stalled || fail "mkdir"
start=$(date +%s)
CUDATRACE_FLUSH_MS=20 LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$stall "$APP" -t 2 -n 5000 -w ready 2>stderr &
pid=$!
i=0
while [ ! -f ready ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -f ready ] || fail "app never got ready (stalled writer)"
sleep 0.2 # the writer's first drain (20 ms) is under way, and stuck
kill -TERM $pid
wait $pid
expect "exit status (stalled writer)" 143 "$?"
[ $(($(date +%s) - start)) -lt 30 ] || fail "the signal flush waited on the stuck writer"
set -- cudatrace-*.ctrace
dump "$1"
c=$(calls "$1")
tail -2 "$1.txt" | head -1 | grep -q '^lost count=[0-9]* reason=shutdown tid=0$' || fail "no shutdown LOST: $(tail -2 "$1.txt")"
lost=$(sed -n 's/^lost count=\([0-9]*\) reason=shutdown.*/\1/p' "$1.txt")
expect "calls + lost (stalled writer)" 10000 "$((c + lost))"
expect "end calls (stalled writer)" "$c" "$(end_field "$1" calls)"
expect "end lost (stalled writer)" "$lost" "$(end_field "$1" lost)"
grep -q "^cudatrace: wrote $1: $c calls, $lost lost\$" stderr || fail "summary line (stalled writer): $(cat stderr)"
cd .. || fail "cd"
