# main returns while other threads are still recording: the file is closed consistently (END last, every
# record whole), the program's exit status unchanged; and the output settings: %p/%q{VAR} naming, an
# existing file never overwritten, mode 0600, CUDATRACE_QUIET, one warning for a bad value.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_OUTPUT='run-%q{CT_TEST_RANK}-%p.ctrace' CT_TEST_RANK=7 "$APP" -t 2 -n 1000 -k -x 4 2>stderr
expect "exit status" 4 "$?"
set -- run-7-*.ctrace
[ -f "$1" ] || fail "no run-7-PID.ctrace: $(ls)"
dump "$1"
tail -1 "$1.txt" | grep -q '^end ' || fail "END is not the last record"
c=$(calls "$1")
[ "$c" -ge 2000 ] || fail "only $c calls"
expect "end calls" "$c" "$(end_field "$1" calls)"
expect "mode" 600 "$(stat -c %a "$1")"
expect "stderr lines" 1 "$(wc -l <stderr)"
grep -q "^cudatrace: wrote $1: $c calls, 0 lost\$" stderr || fail "summary: $(cat stderr)"

# A fixed name that exists: the next free alternative, the existing file untouched.
echo keep >fixed.ctrace
CUDATRACE_OUTPUT=fixed.ctrace CUDATRACE_QUIET=1 CUDATRACE_BUFFER_SIZE=lots "$APP" -n 10 2>stderr || fail "app"
expect "existing file" keep "$(cat fixed.ctrace)"
dump fixed.1.ctrace
expect "calls" 10 "$(calls fixed.1.ctrace)"
expect "warnings" 1 "$(wc -l <stderr)"
grep -q '^cudatrace: CUDATRACE_BUFFER_SIZE="lots" is not a size' stderr || fail "warning: $(cat stderr)"
