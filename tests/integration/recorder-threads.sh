# 16 threads x 200,000 records: none lost, each thread's records in the order it made them.  Each thread's
# buffer (16M) holds all its records, so the result does not depend on how fast this machine's writer is.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_BUFFER_SIZE=16M CUDATRACE_QUIET=1 "$APP" -t 16 -n 200000 -p || fail "app exited $?"
set -- cudatrace-*.ctrace
expect "trace files" 1 "$#"
dump "$1"
expect "call records" 3200000 "$(calls "$1")"
grep -q '^lost ' "$1.txt" && fail "records lost: $(grep '^lost ' "$1.txt" | head -3)"
expect "end calls" 3200000 "$(end_field "$1" calls)"
expect "end lost" 0 "$(end_field "$1" lost)"
# Per thread: 200,000 records with increasing sequence numbers.
thread_counts "$1"
expect "threads" 16 "$(wc -l <"$1.threads")"
expect "threads with other than 200000 records" "" "$(awk '$2 != 200000' "$1.threads")"
