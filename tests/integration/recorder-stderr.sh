# What the tracer says goes to the stderr the program started with, one line per message, escaped:
# - a program that closed descriptor 2 and opened a data file there finds none of our lines in it;
# - a value echoed from the environment with a newline or an escape sequence stays on its one line.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

# A bad value (a warning at start) and the summary at exit, while descriptor 2 is the program's data file.
CUDATRACE_QUIET=bogus "$APP" -n 100 -x 3 -2 data 2>stderr
expect "exit status" 3 "$?"
expect "the program's data file" "data" "$(cat data)"
[ -s stderr ] && fail "said something on a stderr the program had closed: $(cat stderr)"
set -- cudatrace-*.ctrace
[ -f "$1" ] || fail "no trace"
dump "$1"
expect "calls" 100 "$(calls "$1")"
rm -f cudatrace-*.ctrace*

# The same run with descriptor 2 untouched: both lines are there.
CUDATRACE_QUIET=bogus "$APP" -n 100 -x 3 2>stderr
expect "stderr lines" 2 "$(wc -l <stderr)"
grep -q '^cudatrace: CUDATRACE_QUIET="bogus" is not 1 or 0; using 0$' stderr || fail "warning: $(cat stderr)"
grep -q '^cudatrace: wrote cudatrace-[0-9]*\.ctrace: 100 calls, 0 lost$' stderr || fail "summary: $(cat stderr)"
rm -f cudatrace-*.ctrace*

# A value with a newline, an escape sequence and a tab: one line, control characters escaped.
CUDATRACE_STACKS=$'all\n\e[31mred\tx' CUDATRACE_QUIET=1 "$APP" -n 10 2>stderr
expect "exit status (escaped)" 0 "$?"
expect "stderr lines (escaped)" 1 "$(wc -l <stderr)"
grep -q "$(printf '\033')" stderr && fail "a raw escape character reached stderr"
grep -qF 'cudatrace: CUDATRACE_STACKS="all\n\e[31mred\tx" is not none, alloc or all; using alloc' stderr ||
    fail "warning (escaped): $(cat -A stderr)"
