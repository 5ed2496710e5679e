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

# A disk full from the start (the limit is below the metadata the file begins with: about 1 KB here): the file
# keeps what fits, cut at a record boundary, and ends with a write_error LOST record counting every call
# and END; stderr says so.
mkdir start && cd start || fail "mkdir"
(ulimit -f 1 && exec "$APP" -n 1000 -x 5) 2>stderr
expect "exit status (full at start)" 5 "$?"
set -- cudatrace-*.ctrace
[ -f "$1" ] || fail "no trace file left when the disk filled at start"
[ "$(wc -c <"$1")" -le 1024 ] || fail "file is over the limit"
grep -q "^cudatrace: cannot write $1: File too large; the rest of the trace is counted as lost\$" stderr ||
    fail "message (full at start): $(cat stderr)"
lost=1000
grep -q "^cudatrace: wrote $1: 0 calls, 1000 lost\$" stderr || fail "summary (full at start): $(cat stderr)"
dump "$1"
tail -2 "$1.txt" | head -1 | grep -q "^lost count=$lost reason=write_error tid=0\$" || fail "LOST (full at start): $(tail -2 "$1.txt")"
expect "end lost (full at start)" "$lost" "$(end_field "$1" lost)"
cd .. || fail "cd"

# Not even the header fits: no file, and the calls are still counted on stderr.  (Not under TSan, whose
# runtime writes a file of its own at start-up, which the limit of 0 kills.)
grep -aq __tsan_init "$APP" && exit 0
mkdir none && cd none || fail "mkdir"
# (stderr through a pipe: a file there would be limited too)
(ulimit -f 0 && exec "$APP" -n 1000 -x 5) 2>&1 | cat >stderr
expect "exit status (no room)" 5 "${PIPESTATUS[0]}"
[ -z "$(ls)" ] || [ "$(ls)" = stderr ] || fail "files left: $(ls)"
grep -q "^cudatrace: cannot write cudatrace-[0-9]*\.ctrace: File too large; calls are counted, not recorded\$" stderr ||
    fail "message (no room): $(cat stderr)"
grep -q "^cudatrace: could not write cudatrace-[0-9]*\.ctrace: 0 calls, 1000 lost\$" stderr ||
    fail "summary (no room): $(cat stderr)"
