#!/bin/sh
# Python frames in call stacks, on the simulated driver: py-pystack.py (ctypes) leaks from
# Model.load_weights, allocates and frees in scratch_roundtrip and in a thread's worker.  The memory report
# names both allocating functions with their exact lines, interleaved with the native frames where the eval
# loop is; --group-by python groups by them; the thread's stack ends in threading.py; CUDATRACE_STACKS=all
# puts them on frees too; CUDATRACE_PYTHON_STACKS=off leaves them out; a bad value warns once.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SCRIPT=$CT_TOP_SRCDIR/tests/integration/py-pystack.py
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }
grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h" || { echo "SKIP: no call stacks without libunwind"; exit 77; }
"$PY" -c 'import ctypes, sys; sys.exit(not (3, 8) <= sys.version_info[:2] <= (3, 13))' 2>/dev/null ||
    { echo "SKIP: $PY is not CPython 3.8 to 3.13"; exit 77; }

# trace NAME [VAR=VALUE...]: run the script traced into $TMP/NAME.ct, stderr in $TMP/NAME.err
trace() {
    name=$1
    shift
    env "$@" CUDATRACE_OUTPUT="$TMP/$name.ct" CUDATRACE_QUIET=1 LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$PY" "$SCRIPT" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
        fail "py-pystack.py traced ($*) failed: $(cat "$TMP/$name.err")"
    expect_eq "py-pystack.py output ($*)" "py-pystack: PASSED" "$(cat "$TMP/$name.out")"
}
# The lines the reports must name, found by their markers in the script.
line_of() { grep -n "$1" "$SCRIPT" | head -n 1 | cut -d: -f1; }
export LEAK=$(line_of '# LEAK') SCRATCH=$(line_of '# SCRATCH') THREAD=$(line_of '# THREAD')
export CALL_LOAD=$(line_of '^    model.load_weights') CALL_SCRATCH=$(line_of '^    scratch_roundtrip()') CALL_MAIN=$(line_of '^main()')

trace alloc
expect_eq "no warning by default" "" "$(cat "$TMP/alloc.err")"
"$CT_TOP_BUILDDIR/tests/integration/ctdump" "$TMP/alloc.ct" | grep -q '^string id=[0-9]* kind=python value=.*py-pystack\.py$' ||
    fail "ctdump: the script's file name is not a string of kind python"
run_report 0 memory --format json "$TMP/alloc.ct"
py '
import json, os, sys
E = {k: int(os.environ[k]) for k in ("LEAK", "SCRATCH", "THREAD", "CALL_LOAD", "CALL_SCRATCH", "CALL_MAIN")}
r = json.load(open(sys.argv[1]))
def python(stack):
    return [(f["function"], f["line"]) for f in stack if f.get("python")]
assert len(r["leaks"]) == 1 and (r["leaks"][0]["bytes"], r["leaks"][0]["allocations"]) == (2097152, 2), r["leaks"]
stack = r["leaks"][0]["stack"]
assert python(stack) == [("Model.load_weights", E["LEAK"]), ("main", E["CALL_LOAD"]), ("<module>", E["CALL_MAIN"])], stack
assert all(f["file"].endswith("/py-pystack.py") for f in stack if f.get("python")), stack
first = next(i for i, f in enumerate(stack) if f.get("python"))
assert first > 0 and not stack[0].get("python"), stack  # the native frames of ctypes come first
after = stack[first + 3]  # interleaved: the eval loop that ran them follows them
assert not after.get("python") and after.get("function") == "_PyEval_EvalFrameDefault", after
peak = sorted(python(s["stack"])[0] for s in r["peak"]["sites"])
assert peak == [("Model.load_weights", E["LEAK"]), ("scratch_roundtrip", E["SCRATCH"])], peak
'
run_report 0 memory --format table "$TMP/alloc.ct"
grep -q "^    #[0-9]* py-pystack.py:$LEAK Model.load_weights$" "$TMP/out" || fail "memory table: no Python frame: $(cat "$TMP/out")"
cp "$TMP/out" "$TMP/memory.txt"

run_report 0 memory --format json --group-by python "$TMP/alloc.ct"
py '
import json, os, sys
r = json.load(open(sys.argv[1]))
assert r["group_by"] == "python", r
leaks = [(s["bytes"], s["allocations"], [(f["function"], f["line"]) for f in s["stack"]]) for s in r["leaks"]]
assert leaks == [(2097152, 2, [("Model.load_weights", int(os.environ["LEAK"])), ("main", int(os.environ["CALL_LOAD"])),
                               ("<module>", int(os.environ["CALL_MAIN"]))])], leaks
peak = sorted((s["stack"][0]["function"], s["stack"][0]["line"], s["bytes"]) for s in r["peak"]["sites"])
assert peak == [("Model.load_weights", int(os.environ["LEAK"]), 2097152),
                ("scratch_roundtrip", int(os.environ["SCRATCH"]), 2097152)], peak
'
run_report 0 memory --format table --group-by python "$TMP/alloc.ct"
grep -A1 '^Leaked 2,097,152 bytes in 2 allocations$' "$TMP/out" | grep -q "^    #0 py-pystack.py:$LEAK Model.load_weights$" ||
    fail "memory --group-by python: leak not at its Python line: $(cat "$TMP/out")"
run_report 1 memory --group-by lines "$TMP/alloc.ct"
grep -q 'group-by takes stack or python' "$TMP/err" || fail "memory --group-by lines: no message"

# The thread's allocation: worker, then threading.py's frames (the standard library: not user code).
run_report 0 stacks --api 'cuMemAlloc*' --format json "$TMP/alloc.ct"
py '
import json, os, sys
r = json.load(open(sys.argv[1]))
py = [[f for f in s["stack"] if f.get("python")] for s in r["by_count"]]
w = [p for p in py if p and p[0]["function"] == "worker"]
assert len(w) == 1 and w[0][0]["line"] == int(os.environ["THREAD"]), py
assert [f["function"] for f in w[0][1:]] == ["Thread.run", "Thread._bootstrap_inner", "Thread._bootstrap"], w
assert all(f["file"].endswith("/threading.py") for f in w[0][1:]), w
'

# calls --stacks: each call with its stack; the Perfetto export's "stack" argument
run_report 0 calls --api 'cuMemAlloc*' --stacks --format json "$TMP/alloc.ct"
py '
import json, os, sys
calls = [json.loads(l) for l in open(sys.argv[1])]
first = [next((f["function"], f["line"]) for f in c["stack"] if f.get("python")) for c in calls]
assert first == [("Model.load_weights", int(os.environ["LEAK"]))] * 2 + [("scratch_roundtrip", int(os.environ["SCRATCH"])),
                 ("worker", int(os.environ["THREAD"]))], first
'
run_report 0 calls --api 'cuMemAlloc*' --stacks --format table "$TMP/alloc.ct"
grep -q "^    #[0-9]* py-pystack.py:$SCRATCH scratch_roundtrip$" "$TMP/out" || fail "calls --stacks table: no Python frame"
if [ -n "${CT_PROTOC:-}" ]; then
    run_report 0 export --format perfetto -o "$TMP/p.pftrace" "$TMP/alloc.ct"
    "$CT_PROTOC" --proto_path="$CT_TOP_SRCDIR/src/report/export" --decode=perfetto.protos.Trace perfetto_trace.proto \
        <"$TMP/p.pftrace" >"$TMP/p.txt" 2>"$TMP/err" || fail "protoc --decode: $(cat "$TMP/err")"
    grep -q "string_value: \".* | py-pystack.py:$LEAK Model.load_weights | py-pystack.py:$CALL_LOAD main | " "$TMP/p.txt" ||
        fail "perfetto export: no stack argument with the Python frames"
fi

# all: frees carry the Python frames too
trace all CUDATRACE_STACKS=all
run_report 0 stacks --api 'cuMemFree*' --format json "$TMP/all.ct"
py '
import json, os, sys
r = json.load(open(sys.argv[1]))
fns = sorted(next(f["function"] for f in s["stack"] if f.get("python")) for s in r["by_count"])
assert fns == ["scratch_roundtrip", "worker"], fns
'

# off: native frames only; a bad value: one warning, and auto
trace off CUDATRACE_PYTHON_STACKS=off
run_report 0 memory --format json "$TMP/off.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["leaks"] and not any(f.get("python") for f in r["leaks"][0]["stack"]), r["leaks"]
'
trace bad CUDATRACE_PYTHON_STACKS=sometimes
expect_eq "warning for a bad CUDATRACE_PYTHON_STACKS" 1 "$(grep -c '^cudatrace: CUDATRACE_PYTHON_STACKS="sometimes" is not auto or off; using auto$' "$TMP/bad.err")"
run_report 0 memory --format json "$TMP/bad.ct"
py '
import json, sys
assert any(f.get("python") for f in json.load(open(sys.argv[1]))["leaks"][0]["stack"])
'
# fork, threads, a sub-interpreter (its allocation shows the main interpreter's frames), daemon threads at
# shutdown: the program runs as untraced, and the child's file has its Python frames.
mkdir "$TMP/edge"
CUDATRACE_OUTPUT="$TMP/edge/e-%p.ct" CUDATRACE_STACKS=all CUDATRACE_QUIET=1 LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" \
    LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" "$PY" "$CT_TOP_SRCDIR/tests/integration/py-pystack-edge.py" \
    >"$TMP/edge.out" 2>"$TMP/edge.err" || fail "py-pystack-edge.py traced: exit $?: $(cat "$TMP/edge.err")"
expect_eq "py-pystack-edge.py output" "py-pystack-edge: PASSED" "$(cat "$TMP/edge.out")"
expect_eq "py-pystack-edge.py stderr" "" "$(cat "$TMP/edge.err")"
expect_eq "trace files of parent and child" 2 "$(ls "$TMP/edge" | wc -l)"
export CHILD=$(grep -n '# CHILD' "$CT_TOP_SRCDIR/tests/integration/py-pystack-edge.py" | cut -d: -f1)
for f in "$TMP"/edge/*.ct; do
    run_report 0 stacks --api 'cuMemAlloc*' --format json "$f"
    "$PY" -c '
import json, os, sys
r = json.load(open(sys.argv[1]))
py = [[(f["function"], f["line"]) for f in s["stack"] if f.get("python")] for s in r["by_count"]]
# (a daemon thread allocating while the interpreter finalizes gets no Python frame)
assert any(py) and all(not p or p[0][0] in ("alloc_free", "sub_interpreter") for p in py), py
print("child" if any(len(p) > 1 and p[1] == ("child_alloc", int(os.environ["CHILD"])) for p in py) else "parent")
' "$TMP/out" >>"$TMP/roles" 2>"$TMP/pyerr" || fail "python check of $f failed: $(cat "$TMP/pyerr")"
done
expect_eq "the child's file has child_alloc" "child parent" "$(sort "$TMP/roles" | tr '\n' ' ' | sed 's/ $//')"
finish
