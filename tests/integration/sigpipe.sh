#!/bin/sh
# The tracer's own lines on stderr never kill the program: with stderr a pipe whose reader has gone
# (`prog 2>&1 | grep -q PASSED` under pipefail), a traced sample that makes the tracer warn at its first call
# and sum up at exit gets the exit status it gets untraced, not death by SIGPIPE (issue 34, item 3).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
samples=$CT_TOP_BUILDDIR/tests/samples
export LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR
cd "$tmp" || exit 99

# Descriptor 4: the write end of a FIFO nobody reads (3 opened it read-write only so that opening 4 does not
# block, then is closed).  Every write to 4 raises SIGPIPE and fails with EPIPE.
mkfifo "$tmp/err" || exit 99
exec 3<>"$tmp/err" 4>"$tmp/err" 3<&-
sh -c 'echo x >&2' 2>&4
rc=$?
[ "$rc" = 141 ] || fail "the set-up: a write to the pipe gave exit $rc, not 141 (SIGPIPE)"

"$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" >"$tmp/plain.out" 2>&4
rc=$?
[ "$rc" = 0 ] || fail "untraced: exit $rc"
CUDATRACE_QUIET=bogus CUDATRACE_OUTPUT=$tmp/t.ctrace LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
    "$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" >"$tmp/traced.out" 2>&4
rc=$?
[ "$rc" = 0 ] || fail "traced, a warning and the summary to a pipe nobody reads: exit $rc, untraced 0"
cmp -s "$tmp/plain.out" "$tmp/traced.out" || fail "traced: output differs"
"$ctdump" "$tmp/t.ctrace" >"$tmp/t.dump" || fail "traced: ctdump exit $?"
grep -q '^end ' "$tmp/t.dump" || fail "traced: the trace has no end record"

# A program that blocks SIGPIPE: the one our write raised is taken back; one the program had pending stays.
for mode in blocked pending; do
    CUDATRACE_QUIET=bogus CUDATRACE_OUTPUT=$tmp/$mode.ctrace LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        "$bin/sigpipe-pending" $mode >"$tmp/$mode.out" 2>&4
    rc=$?
    [ "$rc" = 0 ] || fail "SIGPIPE $mode in the program: exit $rc ($(cat "$tmp/$mode.out"))"
    [ -s "$tmp/$mode.ctrace" ] || fail "SIGPIPE $mode in the program: no trace"
done
exec 4>&-
exit 0
