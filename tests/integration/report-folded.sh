#!/bin/sh
# Folded stacks (stacks and memory --format folded), the lines flame-graph tools read: "root;...;leaf WEIGHT".
# Debian packages no flame-graph tool (no flamegraph.pl, no inferno), so each line is parsed here as strictly
# as they parse it: frames joined by ';', none empty, no control character (a line break would split the
# line), a positive integer weight after the last blank.  The weights add up to what the JSON reports say:
# host time or calls per call site (stacks), bytes at the peak or leaked (memory); frames come root first
# (main before the function it called, the API last), Python frames among them; hostile names (report-gen
# escapes, markup) cannot add a frame or a line.  Bad --weight values are usage errors.  Where flamegraph.pl
# is installed (in PATH, or CT_FLAMEGRAPH names it), each output is drawn with it too, which must take every
# line (it says "Ignored N lines with invalid format" of any other).
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
FLAMEGRAPH=${CT_FLAMEGRAPH:-$(command -v flamegraph.pl || true)}

# folded: parse $TMP/out strictly (a bad line fails); its lines' total weight goes to $TMP/out.sum, which
# `total` prints (empty when the parse failed)
folded() {
    rm -f "$TMP/out.sum"
    py '
import re, sys
total, n = 0, 0
for line in open(sys.argv[1], "rb").read().split(b"\n")[:-1]:
    m = re.fullmatch(rb"(.+) ([1-9][0-9]*)", line)
    assert m, line
    frames = m.group(1).split(b";")
    assert all(frames) and not any(c < 32 or c == 127 for c in line), line
    total += int(m.group(2))
    n += 1
assert n > 0, "no line"
open(sys.argv[1] + ".sum", "w").write(str(total))
'
    if [ -n "$FLAMEGRAPH" ]; then
        perl "$FLAMEGRAPH" <"$TMP/out" >"$TMP/flame.svg" 2>"$TMP/flame.err" || fail "flamegraph.pl: $(cat "$TMP/flame.err")"
        grep -q Ignored "$TMP/flame.err" && fail "flamegraph.pl: $(cat "$TMP/flame.err")"
        grep -q '<svg' "$TMP/flame.svg" || fail "flamegraph.pl drew nothing"
    fi
}
total() { cat "$TMP/out.sum" 2>/dev/null; }

# json EXPRESSION ARGS...: a number from a report's JSON (r is the parsed output)
json() {
    expr=$1
    shift
    run_report 0 "$@"
    "$PY" -c "import json, sys; r = json.load(open(sys.argv[1])); print($expr)" "$TMP/out"
}

"$GEN" escapes "$TMP/esc.ct" || fail "report-gen escapes"
"$GEN" markup "$TMP/markup.ct" || fail "report-gen markup"
for t in esc markup; do
    run_report 0 stacks --format folded "$TMP/$t.ct"
    folded
    got=$(total)
    expect_eq "$t: stacks folded: time" "$(json 'sum(s["total_ns"] for s in r["by_time"])' stacks -f json -t 0 "$TMP/$t.ct")" "$got"
    run_report 0 stacks --format folded --weight calls "$TMP/$t.ct"
    folded
    got=$(total)
    expect_eq "$t: stacks folded: calls" "$(json 'sum(s["calls"] for s in r["by_time"])' stacks -f json -t 0 "$TMP/$t.ct")" "$got"
    run_report 0 memory --format folded --weight leaked "$TMP/$t.ct"
    folded
    got=$(total)
    expect_eq "$t: memory folded: leaked" "$(json 'r["leak_summary"]["bytes"]' memory -f json "$TMP/$t.ct")" "$got"
done
run_report 0 stacks --format folded "$TMP/esc.ct"
grep -q '^0x1234 \[?\[2Jlibevil.so\];cuMemAlloc?\[5m 100$' "$TMP/out" || fail "escapes: control characters: $(cat -A "$TMP/out")"
run_report 0 stacks --format folded "$TMP/markup.ct"
grep -q '^0x1234 \[<b>lib&amp,evil.so\];cuLaunchKernel 100$' "$TMP/out" || fail "markup: ';' in a frame: $(cat "$TMP/out")"

run_report 1 stacks --format folded --weight bytes "$TMP/esc.ct"
grep -q 'weight takes time or calls' "$TMP/err" || fail "stacks --weight bytes: $(cat "$TMP/err")"
run_report 1 memory --format folded --weight time "$TMP/esc.ct"
grep -q 'weight takes peak or leaked' "$TMP/err" || fail "memory --weight time: $(cat "$TMP/err")"
run_report 1 summary --format folded "$TMP/esc.ct"

# Native frames root first, on the simulated driver (leak_drv: the peak of scratch_roundtrip's and
# leak_cache_buffers' buffers, leak_cache_buffers' left at exit).
if [ -f "$CT_PRELOAD" ] && grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h"; then
    env CUDATRACE_OUTPUT="$TMP/leak.ct" CUDATRACE_QUIET=1 LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$CT_TOP_BUILDDIR/tests/samples/leak_drv" >/dev/null 2>"$TMP/leak.err" ||
        fail "leak_drv: $(cat "$TMP/leak.err")"
    run_report 0 memory --format folded "$TMP/leak.ct"
    expect_eq "leak_drv: peak bytes" 7340032 "$(folded; total)"
    grep -q ';main;scratch_roundtrip 4194304$' "$TMP/out" || fail "leak_drv: peak: $(cat "$TMP/out")"
    grep -q ';main;leak_cache_buffers 3145728$' "$TMP/out" || fail "leak_drv: peak: $(cat "$TMP/out")"
    run_report 0 memory --format folded --weight leaked "$TMP/leak.ct"
    expect_eq "leak_drv: leaked bytes" 3145728 "$(folded; total)"
    run_report 0 stacks --format folded --weight calls "$TMP/leak.ct"
    folded
    grep -q ';main;leak_cache_buffers;cuMemAlloc 3$' "$TMP/out" || fail "leak_drv: stacks: $(cat "$TMP/out")"

    # Python frames among the native ones, as "function (file:line)", the caller before the callee.
    SCRIPT=$CT_TOP_SRCDIR/tests/integration/py-pystack.py
    if "$PY" -c 'import sys; sys.exit(not (3, 8) <= sys.version_info[:2] <= (3, 13))' 2>/dev/null; then
        env CUDATRACE_OUTPUT="$TMP/py.ct" CUDATRACE_QUIET=1 LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
            LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$PY" "$SCRIPT" >/dev/null 2>"$TMP/py.err" || fail "py-pystack.py: $(cat "$TMP/py.err")"
        leak=$(grep -n '# LEAK' "$SCRIPT" | head -n 1 | cut -d: -f1)
        call=$(grep -n '^    model.load_weights' "$SCRIPT" | head -n 1 | cut -d: -f1)
        run_report 0 memory --format folded --weight leaked "$TMP/py.ct"
        expect_eq "python: leaked bytes" 2097152 "$(folded; total)"
        grep -q ";main (py-pystack.py:$call);Model.load_weights (py-pystack.py:$leak);.* 2097152$" "$TMP/out" ||
            fail "python: no Python frames in order: $(cat "$TMP/out")"
        run_report 0 memory --format folded --weight leaked --group-by python "$TMP/py.ct" # Python frames alone
        folded
        grep -q "^<module> (py-pystack.py:[0-9]*);main (py-pystack.py:$call);Model.load_weights (py-pystack.py:$leak) 2097152\$" \
            "$TMP/out" || fail "python: --group-by python: $(cat "$TMP/out")"
        run_report 0 memory --format folded --group-by python "$TMP/leak.ct"
        expect_eq "leak_drv: --group-by python" "[no Python frame] 7340032" "$(cat "$TMP/out")"
    fi
fi
finish
