#!/bin/sh
# analyze with Python frames, on the simulated driver: py-analyze.py's loop reads a result back with a
# synchronous copy each step (READBACK) and allocates a new size each step (ALLOC).  analyze --group-by
# python must report sync at the READBACK line and churn at the ALLOC line, both in train(); the same loop
# fixed must report neither.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SCRIPT=$CT_TOP_SRCDIR/tests/integration/py-analyze.py
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }
grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h" || { echo "SKIP: no call stacks without libunwind"; exit 77; }
"$PY" -c 'import ctypes, sys; sys.exit(not (3, 8) <= sys.version_info[:2] <= (3, 13))' 2>/dev/null ||
    { echo "SKIP: $PY is not CPython 3.8 to 3.13"; exit 77; }

# trace NAME [ARG]: the script traced, every call's stack, into $TMP/NAME.ct
trace() {
    env CUDATRACE_OUTPUT="$TMP/$1.ct" CUDATRACE_QUIET=1 CUDATRACE_STACKS=all \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" PYTHONPATH="$CT_TOP_SRCDIR/tests/integration" \
        "$PY" "$SCRIPT" ${2:+"$2"} >"$TMP/$1.out" 2>"$TMP/$1.err" || fail "py-analyze.py $1 failed: $(cat "$TMP/$1.err")"
    expect_eq "py-analyze.py $1: output" "py-analyze: PASSED" "$(cat "$TMP/$1.out")"
}
line_of() { grep -n "$1" "$SCRIPT" | head -n 1 | cut -d: -f1; }
READBACK=$(line_of '# READBACK')
ALLOC=$(line_of '# ALLOC')
export READBACK ALLOC

# sites RULE: the (function, line) of the first frame of each site of RULE's findings, in py-analyze.py
SITES='
import json, os, sys
r = json.load(open(sys.argv[1]))
def sites(rule):
    return [(s["stack"][0].get("function"), s["stack"][0].get("line")) for f in r["findings"] if f["rule"] == rule
            for s in f["sites"] if s["stack"] and s["stack"][0].get("file", "").endswith("py-analyze.py")]
readback, alloc = int(os.environ["READBACK"]), int(os.environ["ALLOC"])
'

trace planted
run_report 0 analyze --format json --group-by python "$TMP/planted.ct"
py "$SITES"'
assert ("train", readback) in sites("sync"), sites("sync")
assert ("train", alloc) in sites("churn"), sites("churn")
assert ("train", readback) in sites("small-copies"), sites("small-copies")
sync = [f for f in r["findings"] if f["rule"] == "sync"][0]
assert 10 <= sync["sites"][0]["count"] <= 40 and sync["sites"][0]["label"].endswith("py-analyze.py:%d train" % readback), sync
'
# Grouped by stack, the site's stack has the Python frames too, after the native ones.
run_report 0 analyze --format json "$TMP/planted.ct"
py "$SITES"'
f = [f for f in r["findings"] if f["rule"] == "churn"][0]
py = [(fr["function"], fr["line"]) for fr in f["sites"][0]["stack"] if fr.get("python")]
assert py[:2] == [("train", alloc), ("main", py[1][1])], py
assert f["sites"][0]["label"] == "cuMemAlloc", f["sites"][0]
'
run_report 0 analyze --format table --group-by python "$TMP/planted.ct"
grep -q "^       #0 py-analyze.py:$READBACK train$" "$TMP/out" || fail "table: no READBACK frame: $(cat "$TMP/out")"

trace fixed fixed
run_report 0 analyze --format json --group-by python "$TMP/fixed.ct"
py "$SITES"'
assert not sites("sync") and not sites("churn"), (sites("sync"), sites("churn"))
'
finish
