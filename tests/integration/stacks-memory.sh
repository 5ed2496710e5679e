#!/bin/sh
# Call stacks on the simulated driver: leak_drv leaks three 1 MiB buffers from leak_cache_buffers and makes
# a 7 MiB peak with two 2 MiB scratch buffers from scratch_roundtrip.  The memory report names the leaking
# function with its bytes and count, and the peak with the sites holding it; the stacks report shows the two
# call sites; the Chrome export carries stacks; a trace without stacks says so; a bad setting warns once.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SAMPLE=$CT_TOP_BUILDDIR/tests/samples/leak_drv
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }

# trace NAME [VAR=VALUE...]: run leak_drv traced into $TMP/NAME.ct, stderr in $TMP/NAME.err
trace() {
    name=$1
    shift
    env "$@" CUDATRACE_OUTPUT="$TMP/$name.ct" CUDATRACE_QUIET=1 LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$SAMPLE" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
        fail "leak_drv traced ($*) failed: $(cat "$TMP/$name.err")"
    expect_eq "leak_drv output ($*)" "leak_drv: PASSED" "$(cat "$TMP/$name.out")"
}

if grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h"; then
    trace alloc # the default: CUDATRACE_STACKS=alloc
    expect_eq "no warning by default" "" "$(cat "$TMP/alloc.err")"

    run_report 0 memory --format json "$TMP/alloc.ct"
    py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["stacks_recorded"] is True, r
dev = [m for m in r["memory"] if m["kind"] == "device"]
assert len(dev) == 1 and dev[0]["device"] == 0, r["memory"]
d = dev[0]
assert (d["allocs"], d["alloc_bytes"], d["frees"], d["freed_bytes"]) == (5, 7340032, 2, 4194304), d
assert (d["peak_bytes"], d["live_at_exit"], d["live_bytes_at_exit"]) == (7340032, 3, 3145728), d
assert r["peak"]["bytes"] == 7340032 and r["peak"]["time_ns"] > 0, r["peak"]
held = {s["stack"][0]["function"]: (s["bytes"], s["allocations"]) for s in r["peak"]["sites"]}
assert held == {"leak_cache_buffers": (3145728, 3), "scratch_roundtrip": (4194304, 2)}, held
assert len(r["leaks"]) == 1, r["leaks"]
leak = r["leaks"][0]
assert (leak["bytes"], leak["allocations"]) == (3145728, 3), leak
top = leak["stack"][0]
assert top["function"] == "leak_cache_buffers" and top["module"].endswith("/leak_drv"), top
assert leak["stack"][1]["function"] == "main", leak["stack"]
assert r["leak_summary"] == {"bytes": 3145728, "allocations": 3, "sites": 1}, r["leak_summary"]
assert r["unknown_frees"] == 0
'
    if grep -q '^#define HAVE_LIBDW 1' "$CT_TOP_BUILDDIR/config.h"; then
        py '
import json, sys
top = json.load(open(sys.argv[1]))["leaks"][0]["stack"][0]
assert top.get("file", "").endswith("leak_drv.c") and top.get("line", 0) > 0, top
'
    fi
    run_report 0 memory --format table "$TMP/alloc.ct"
    grep -q '^Leaked 3,145,728 bytes in 3 allocations$' "$TMP/out" || fail "memory table: no Leaked block"
    run_report 0 memory --format table --timeunit usec "$TMP/alloc.ct"
    grep -q '^Peak device memory: 7,340,032 bytes at [0-9,]*\.[0-9]\{3\} us; held by:$' "$TMP/out" ||
        fail "memory table: peak time in --timeunit usec: $(grep '^Peak' "$TMP/out")"
    # Grouped by Python line, a C program's allocations are one site, which says why it has no frame.
    run_report 0 memory --format table --group-by python "$TMP/alloc.ct"
    grep -q '^    (no Python frame: native code, or a thread that runs no Python)$' "$TMP/out" ||
        fail "memory --group-by python of a C program: $(grep -A1 '^Leaked' "$TMP/out")"
    grep -q 'no call stack recorded' "$TMP/out" && fail "memory --group-by python: says no stack was recorded"
    run_report 7 memory --format csv --error-exitcode 7 "$TMP/alloc.ct" # leaks: compute-sanitizer's convention
    run_report 0 memory --format table "$TMP/alloc.ct"
    grep -q '#0 leak_cache_buffers+0x' "$TMP/out" || fail "memory table: leaking function not shown"
    grep -q '^LEAK SUMMARY: 3,145,728 bytes in 3 allocations from 1 call site still' "$TMP/out" ||
        fail "memory table: no LEAK SUMMARY"
    run_report 0 memory --format csv "$TMP/alloc.ct"
    grep -q '^3145728,3,leak_cache_buffers+0x' "$TMP/out" || fail "memory csv: no leak row"

    run_report 0 stacks --api 'cuMemAlloc*' --format json "$TMP/alloc.ct"
    py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["stacks_recorded"] is True and r["sites"] == 2, r
for key in ("by_time", "by_count"):
    sites = {s["stack"][0]["function"]: s["calls"] for s in r[key]}
    assert sites == {"leak_cache_buffers": 3, "scratch_roundtrip": 2}, (key, sites)
    assert all(s["api"] == "cuMemAlloc" and s["total_ns"] > 0 for s in r[key]), r[key]
assert r["by_count"][0]["calls"] == 3
'
    run_report 0 stacks --api cuMemFree --format json "$TMP/alloc.ct"
    py '
import json, sys
r = json.load(open(sys.argv[1]))
assert [(s["calls"], s["stack"][0]["function"]) for s in r["by_count"]] == [(2, "scratch_roundtrip")], r
'

    # all: every call has a stack, and the Chrome export shows it
    trace all CUDATRACE_STACKS=all CUDATRACE_STACK_DEPTH=4
    run_report 0 export --format chrome -o "$TMP/chrome.json" "$TMP/all.ct"
    "$PY" -c '
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X" and not e.get("cat", "").startswith("gpu")]
assert ev and all("stack" in e["args"] for e in ev), [e["name"] for e in ev if "stack" not in e["args"]]
assert all(1 <= len(e["args"]["stack"]) <= 4 for e in ev)
ctx = [e for e in ev if e["name"] == "cuCtxCreate"][0]
assert ctx["args"]["stack"][0].startswith("main+0x"), ctx["args"]["stack"]
' "$TMP/chrome.json" || fail "chrome export: stacks missing"

    # bad values: one warning each, the defaults used
    trace bad CUDATRACE_STACKS=sometimes CUDATRACE_STACK_DEPTH=1000
    expect_eq "warnings for bad stack settings" 2 "$(grep -c '^cudatrace: CUDATRACE_STACK' "$TMP/bad.err")"
    "$CT_TOP_BUILDDIR/tests/integration/ctdump" "$TMP/bad.ct" >"$TMP/bad.dump" || fail "ctdump of bad.ct"
    grep -q '^header .*features=0x13$' "$TMP/bad.dump" || fail "stacks not on by default after a bad value"
fi

# none (and a build without libunwind): the reports say stacks were not recorded, the memory still adds up
trace none CUDATRACE_STACKS=none
"$CT_TOP_BUILDDIR/tests/integration/ctdump" "$TMP/none.ct" >"$TMP/none.dump" || fail "ctdump of none.ct"
# (0x10: the default set of functions counted, not timed; 0x2: times on CLOCK_MONOTONIC)
grep -q '^header .*features=0x12$' "$TMP/none.dump" || fail "CT_FEAT_STACKS set with CUDATRACE_STACKS=none"
grep -q '^stack ' "$TMP/none.dump" && fail "stack records with CUDATRACE_STACKS=none"
run_report 0 memory --format json "$TMP/none.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["stacks_recorded"] is False, r
assert r["leaks"] == [{"bytes": 3145728, "allocations": 3, "stack": []}], r["leaks"]
'
run_report 0 memory --format table "$TMP/none.ct"
grep -q '^Call stacks were not recorded' "$TMP/out" || fail "memory table: no 'not recorded' line"
run_report 0 stacks --format json "$TMP/none.ct"
grep -q 'call stacks were not recorded' "$TMP/err" || fail "stacks: no 'not recorded' message"
finish
