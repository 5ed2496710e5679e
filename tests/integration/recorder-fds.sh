# Programs that close descriptors: a vfork'd child closing everything before exec (Python's subprocess)
# must not disturb the parent's trace, and a program closing our descriptor gets its trace reopened by
# name, losing nothing.
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
grep -q "^cudatrace: the program closed the descriptor of .*; reopened it$" err.txt ||
    fail "no 'reopened' message: $(cat err.txt)"
expect "stderr lines" 1 "$(wc -l <err.txt)"
