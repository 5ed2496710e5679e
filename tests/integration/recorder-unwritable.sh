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

# An output that names something other than a file: one line, tracing disabled, no name beside it tried
# (no /dev/null.1, no ..1, no DIR.1).
rm -f stdout stderr
had_devnull1=$([ -e /dev/null.1 ] && echo yes)
CUDATRACE_OUTPUT=/dev/null "$APP" -n 100 -x 7 >stdout 2>stderr
expect "exit status (/dev/null)" 7 "$?"
expect "stderr (/dev/null)" "cudatrace: /dev/null is a character device, not a file; tracing disabled (CUDATRACE_OUTPUT names the trace file)" "$(cat stderr)"
[ -z "$had_devnull1" ] && [ -e /dev/null.1 ] && { rm -f /dev/null.1; fail "wrote /dev/null.1"; }
CUDATRACE_OUTPUT=/dev/null CUDATRACE_QUIET=1 "$APP" -n 100 >stdout 2>stderr
[ -s stderr ] && fail "CUDATRACE_QUIET=1 with /dev/null said: $(cat stderr)"
mkdir -p out/dir && cd out/dir || fail "mkdir"
for o in . "$WORK/out/dir" "$WORK/out/dir/"; do
    CUDATRACE_OUTPUT=$o "$APP" -n 100 -x 7 >stdout 2>stderr
    expect "exit status ($o)" 7 "$?"
    expect "stderr lines ($o)" 1 "$(wc -l <stderr)"
    grep -q "^cudatrace: $o is a directory, not a file; tracing disabled" stderr || fail "message ($o): $(cat stderr)"
    expect "files beside the directory ($o)" "dir" "$(ls "$WORK/out")"
done
cd "$WORK" || fail "cd"

# A link to a device, as /dev/stdout is (a link of the test's own to /proc/self/fd/1: a container may lack
# /dev/stdout, and the test must not write into /dev then), here a pipe: no file either, and no link.1.
ln -s /proc/self/fd/1 "$WORK/stdout-link" || fail "ln -s"
CUDATRACE_OUTPUT=$WORK/stdout-link "$APP" -n 100 -x 7 2>stderr | cat >stdout
expect "exit status (link to stdout)" 7 "${PIPESTATUS[0]}"
expect "stderr (link to stdout)" "cudatrace: $WORK/stdout-link is a FIFO, not a file; tracing disabled (CUDATRACE_OUTPUT names the trace file)" "$(cat stderr)"
[ -s stdout ] && fail "wrote to stdout: $(head -c 100 stdout)"
[ -e "$WORK/stdout-link.1" ] && fail "wrote $WORK/stdout-link.1"
[ -L "$WORK/stdout-link" ] || fail "the link was replaced"
true
