# An output file that cannot be created: one line on stderr, nothing on stdout, the program runs on
# untraced with its own exit status.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_OUTPUT="$WORK/no/such/dir/t-%p.ctrace" "$APP" -n 100 -x 7 >stdout 2>stderr
expect "exit status" 7 "$?"
[ -s stdout ] && fail "output on stdout: $(cat stdout)"
expect "stderr lines" 1 "$(wc -l <stderr)"
grep -q "^cudatrace: cannot create $WORK/no/such/dir/t-[0-9]*\.ctrace: No such file or directory; tracing disabled\$" stderr ||
    fail "message: $(cat stderr)"
[ -z "$(find . -name '*.ctrace')" ] || fail "a trace file was created"
