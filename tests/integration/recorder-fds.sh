# Programs that close descriptors: a vfork'd child closing everything before exec (Python's subprocess)
# must not disturb the parent's trace; a program closing our descriptor finds it moved aside first (the
# close hook), or, closing it by the system call itself, gets its trace reopened by name; nothing is lost.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

# run_closing FLAG WHAT: the app with FLAG writes one trace of 2000 calls, none lost; its stderr in err.txt.
run_closing() {
    CUDATRACE_QUIET=1 "$APP" -n 1000 "$1" 2>err.txt || fail "app ($1) exited $?"
    set -- "$2" cudatrace-*.ctrace
    expect "trace files $1" 1 "$(($# - 1))"
    dump "$2"
    expect "calls $1" 2000 "$(calls "$2")"
    expect "end calls ($1)" 2000 "$(end_field "$2" calls)"
    expect "lost ($1)" 0 "$(end_field "$2" lost)"
}

run_closing -V "after vfork+exec"
[ ! -s err.txt ] || fail "unexpected messages: $(cat err.txt)"
rm -f cudatrace-*.ctrace*

run_closing -C "after closing descriptors"
[ ! -s err.txt ] || fail "unexpected messages (the close hook moves the trace aside): $(cat err.txt)"
rm -f cudatrace-*.ctrace*

# The same past the close hook (the system call itself): the drain's identity check reopens the file.
run_closing -R "after closing descriptors (raw)"
grep -q "^cudatrace: the program closed the descriptor of .*; reopened it$" err.txt ||
    fail "no 'reopened' message: $(cat err.txt)"
expect "stderr lines" 1 "$(wc -l <err.txt)"
