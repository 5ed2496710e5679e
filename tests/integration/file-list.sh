# CUDATRACE_FILE_LIST (issue 34, item 6): each trace file's absolute name is one line of the list, whatever
# the name holds: a backslash written as \\ and a newline as \n (the launcher's --stats decodes them).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
samples=$CT_TOP_BUILDDIR/tests/samples
export LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR
dir=$(realpath "$tmp") || exit 99
nl='
'
trace() { # OUTPUT
    CUDATRACE_OUTPUT=$1 CUDATRACE_FILE_LIST=$dir/list CUDATRACE_QUIET=1 \
        LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        "$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" >/dev/null 2>"$tmp/err" ||
        fail "traced to $1: exit $? ($(cat "$tmp/err"))"
    [ -s "$1" ] || fail "no trace $1"
}

trace "$dir/a${nl}b\\c.ctrace"
trace "$dir/plain.ctrace"
expect="$dir/a\\nb\\\\c.ctrace
$dir/plain.ctrace"
[ "$(cat "$dir/list")" = "$expect" ] || fail "the list: $(cat -A "$dir/list"), expected: $expect"
[ "$(wc -l <"$dir/list")" = 2 ] || fail "the list: not 2 lines"
exit 0
