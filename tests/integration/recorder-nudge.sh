# A ring a quarter full wakes the writer: with the interval at 10 s, one thread writing 7 MB of records over
# 0.3 s into a 4M ring loses none (it would lose 3 MB of them if only the interval woke the writer).  The
# ring keeps 3 MB of headroom after the nudge, 125 ms of this thread's records.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_BUFFER_SIZE=4M CUDATRACE_FLUSH_MS=10000 CUDATRACE_QUIET=1 "$APP" -t 1 -n 150000 -s 2000 -p ||
    fail "app exited $?"
set -- cudatrace-*.ctrace
dump "$1"
expect "call records" 150000 "$(calls "$1")"
expect "end lost" 0 "$(end_field "$1" lost)"
