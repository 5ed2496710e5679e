# A write failure (RLIMIT_FSIZE: EFBIG, SIGXFSZ): the program is neither killed nor slowed and keeps its exit
# status; the file stays readable and ends with a LOST record (write_error) and the END record.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

(ulimit -f 64 && exec "$APP" -n 100000 -x 5) 2>stderr
expect "exit status" 5 "$?"
set -- cudatrace-*.ctrace
size=$(wc -c <"$1")
[ "$size" -le 65536 ] || fail "file is $size bytes, over the limit"
grep -q "^cudatrace: cannot write $1: File too large; the rest of the trace is counted as lost\$" stderr ||
    fail "message: $(cat stderr)"
dump "$1"
tail -2 "$1.txt" | head -1 | grep -q '^lost count=[0-9]* reason=write_error tid=0$' || fail "no write_error LOST: $(tail -2 "$1.txt")"
lost=$(sed -n 's/^lost count=\([0-9]*\) reason=write_error.*/\1/p' "$1.txt")
c=$(calls "$1")
expect "end calls" "$c" "$(end_field "$1" calls)"
expect "calls + lost" 100000 "$((c + lost))"
expect "end lost" "$lost" "$(end_field "$1" lost)"
