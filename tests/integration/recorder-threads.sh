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
awk '/^call / {
        split($2, s, "="); split($3, t, "=");
        if ((t[2] in last) && s[2] + 0 <= last[t[2]]) { print "out of order: tid " t[2] " seq " s[2]; bad = 1 }
        last[t[2]] = s[2] + 0; n[t[2]]++
     }
     END { for (k in n) { threads++; if (n[k] != 200000) { print "tid " k ": " n[k] " records"; bad = 1 } }
           if (threads != 16) { print threads " threads"; bad = 1 }
           exit bad }' "$1.txt" || fail "per-thread order or counts"
