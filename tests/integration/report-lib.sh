# Shared by the report-*.sh tests: the programs, a temporary directory removed at exit, assertions.
set -u
REPORT=$CT_TOP_BUILDDIR/src/report/cudatrace-report
GEN=$CT_TOP_BUILDDIR/tests/integration/report-gen
PY=${CT_PYTHON3:-python3}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/report-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
    if [ "$2" != "$3" ]; then fail "$1: expected '$2', got '$3'"; fi
}

# run_report EXPECTED_RC ARGS...: runs the report, output in $TMP/out, errors in $TMP/err
run_report() {
    want=$1
    shift
    "$REPORT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "cudatrace-report $*: exit $rc, expected $want; stderr: $(cat "$TMP/err")"
    fi
}

# py CODE: runs python with the output file as sys.argv[1]; the code asserts
py() {
    if ! "$PY" -c "$1" "$TMP/out" 2>"$TMP/pyerr"; then
        fail "python check failed: $(cat "$TMP/pyerr")"
    fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    exit 0
}

[ -x "$REPORT" ] && [ -x "$GEN" ] || { echo "cudatrace-report or report-gen not built" >&2; exit 99; }
"$GEN" parent "$TMP/parent.ct" && "$GEN" child "$TMP/child.ct" || { echo "report-gen failed" >&2; exit 99; }
