# Shared by the recorder-*.sh tests (sourced): the programs, a scratch directory removed on exit, helpers.
APP="$CT_TOP_BUILDDIR/tests/integration/recorder-app"
DUMP="$CT_TOP_BUILDDIR/tests/ctdump"
[ -x "$APP" ] && [ -x "$DUMP" ] || { echo "recorder-app or ctdump not built"; exit 99; }
WORK=$(mktemp -d) || exit 99
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 99
unset CUDATRACE_OUTPUT CUDATRACE_BUFFER_SIZE CUDATRACE_FLUSH_MS CUDATRACE_QUIET CUDATRACE_FILE_MODE

fail() { echo "FAIL: $*"; exit 1; }

# expect WHAT EXPECTED ACTUAL
expect() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }

# Dump a trace into FILE.txt, requiring ctdump's exit status (default 0).
dump() {
    "$DUMP" "$1" >"$1.txt" 2>"$1.err"
    rc=$?
    [ "$rc" = "${2:-0}" ] || { cat "$1.err"; fail "ctdump $1 exited $rc, expected ${2:-0}"; }
}

calls() { grep -c '^call ' "$1.txt"; }
end_field() { sed -n "s/^end .*$2=\([0-9]*\).*/\1/p" "$1.txt"; }
