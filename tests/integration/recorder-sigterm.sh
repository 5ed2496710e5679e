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
