# Shared by the interpose-*.sh tests (sourced): a temporary directory, failing, and running a program
# untraced and traced on the simulated driver.
set -u
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
bin=$CT_TOP_BUILDDIR/tests/integration
ctdump=$CT_TOP_BUILDDIR/tests/integration/ctdump

fail() {
    echo "FAIL: $*"
    exit 1
}

for f in "$CT_PRELOAD" "$CT_SIMDRIVER_DIR/libcuda.so.1" "$ctdump"; do
    [ -e "$f" ] || fail "$f is missing (build with make check)"
done

# run_pair NAME PROGRAM ARGS...: run untraced, then traced; stdout to $tmp/NAME.plain / NAME.traced, the
# trace dumped to $tmp/NAME.dump.  Both must exit 0 with identical output.
run_pair() {
    name=$1
    shift
    LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$@" >"$tmp/$name.plain" 2>"$tmp/$name.plain.err" ||
        fail "$name untraced: exit $? ($(cat "$tmp/$name.plain.err"))"
    CUDATRACE_OUTPUT=$tmp/$name.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        "$@" >"$tmp/$name.traced" 2>"$tmp/$name.traced.err" ||
        fail "$name traced: exit $? ($(cat "$tmp/$name.traced.err"))"
    diff -u "$tmp/$name.plain" "$tmp/$name.traced" || fail "$name: output differs traced"
    "$ctdump" "$tmp/$name.ctrace" >"$tmp/$name.dump" || fail "$name: ctdump exit $?"
}

# expect_count NAME N REGEX: exactly N lines of the dump match.
expect_count() {
    got=$(grep -c -E "$3" "$tmp/$1.dump")
    [ "$got" = "$2" ] || fail "$1: $got lines match '$3', expected $2"
}
