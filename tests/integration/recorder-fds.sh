# Programs that close descriptors: a vfork'd child closing everything before exec (Python's subprocess)
# must not disturb the parent's trace; a program closing our descriptor finds it moved aside first (the
# close hook), or, closing it by the system call itself, gets its trace reopened by name; nothing is lost.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_QUIET=1 "$APP" -n 1000 -V 2>err.txt || fail "app (-V) exited $?"
set -- cudatrace-*.ctrace
expect "trace files after vfork+exec" 1 "$#"
dump "$1"
expect "calls before and after the vfork" 2000 "$(calls "$1")"
expect "end calls" 2000 "$(end_field "$1" calls)"
expect "lost" 0 "$(end_field "$1" lost)"
[ ! -s err.txt ] || fail "unexpected messages: $(cat err.txt)"
rm -f cudatrace-*.ctrace*

CUDATRACE_QUIET=1 "$APP" -n 1000 -C 2>err.txt || fail "app (-C) exited $?"
set -- cudatrace-*.ctrace
expect "trace files after closing descriptors" 1 "$#"
dump "$1"
expect "calls before and after the close" 2000 "$(calls "$1")"
expect "end calls" 2000 "$(end_field "$1" calls)"
expect "lost" 0 "$(end_field "$1" lost)"
[ ! -s err.txt ] || fail "unexpected messages (the close hook moves the trace aside): $(cat err.txt)"
rm -f cudatrace-*.ctrace*

# The same past the close hook (the system call itself): the drain's identity check reopens the file.
CUDATRACE_QUIET=1 "$APP" -n 1000 -R 2>err.txt || fail "app (-R) exited $?"
set -- cudatrace-*.ctrace
expect "trace files after closing descriptors (raw)" 1 "$#"
dump "$1"
expect "calls before and after the raw close" 2000 "$(calls "$1")"
expect "end calls" 2000 "$(end_field "$1" calls)"
expect "lost" 0 "$(end_field "$1" lost)"
grep -q "^cudatrace: the program closed the descriptor of .*; reopened it$" err.txt ||
    fail "no 'reopened' message: $(cat err.txt)"
expect "stderr lines" 1 "$(wc -l <err.txt)"
