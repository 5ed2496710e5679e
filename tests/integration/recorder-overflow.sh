# A full buffer: records are dropped and counted, never silently: LOST records (buffer_full) account for
# every record that is not in the file.  64K buffers, a writer that only a ring a quarter full wakes (its
# interval is 10 s): two threads making records as fast as they can outrun it.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_BUFFER_SIZE=64K CUDATRACE_FLUSH_MS=10000 CUDATRACE_QUIET=1 "$APP" -t 2 -n 200000 -p || fail "app exited $?"
set -- cudatrace-*.ctrace
dump "$1"
c=$(calls "$1")
lost=$(awk '/^lost .* reason=buffer_full/ { split($2, a, "="); n += a[2] } END { print n + 0 }' "$1.txt")
[ "$lost" -gt 0 ] || fail "nothing lost"
expect "calls + lost" 400000 "$((c + lost))"
expect "end lost" "$lost" "$(end_field "$1" lost)"
expect "end calls" "$c" "$(end_field "$1" calls)"
