#!/bin/sh
# Call stacks through frames with and without a frame pointer: deep_stack_drv makes its calls under DEPTH
# frames that alternate between with_fp and without_fp (the latter leave %rbp as their caller set it, so a
# walk that trusted the frame-pointer chain would skip frames).  Every frame must be in the stack, in order,
# with as many as CUDATRACE_STACK_DEPTH asks, also when the walk stops long before the stack ends.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SAMPLE=$CT_TOP_BUILDDIR/tests/samples/deep_stack_drv
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }
grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h" || { echo "no call stacks in this build" >&2; exit 77; }

# trace NAME CALLS DEPTH [VAR=VALUE...]: deep_stack_drv traced with every call timed (its cuCtxGetDevice is
# counted by default) and stacked, into $TMP/NAME.ct
trace() {
    name=$1 calls=$2 depth=$3
    shift 3
    env CUDATRACE_APIS=all "$@" CUDATRACE_STACKS=all CUDATRACE_OUTPUT="$TMP/$name.ct" CUDATRACE_QUIET=1 \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$SAMPLE" "$calls" "$depth" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
        fail "deep_stack_drv $calls $depth traced ($*) failed: $(cat "$TMP/$name.err")"
    expect_eq "deep_stack_drv output ($*)" "deep_stack_drv: PASSED" "$(cat "$TMP/$name.out")"
}

# sites NAME DEPTH KEPT: per API one site of CALLS calls whose first KEPT frames are at_bottom, then the
# DEPTH chain frames (innermost: with_fp when DEPTH is odd), then main.
sites() {
    run_report 0 stacks --format json "$TMP/$1.ct"
    "$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
depth, kept, calls = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
chain = ["with_fp" if (depth - i) % 2 else "without_fp" for i in range(depth)]
want = (["at_bottom"] + chain + ["main"])[:kept]
sites = {}
for s in r["by_count"]:
    sites.setdefault(s["api"], []).append(([f.get("function") for f in s["stack"]][:kept], s["calls"]))
for api in ("cuCtxGetDevice", "cuLaunchKernel"):
    assert sites.get(api) == [(want, calls)], (api, sites.get(api), want)
' "$TMP/out" "$2" "$3" "$4" || fail "$1: stacks not as expected (depth $2, $3 frames kept)"
}

trace nine 3 9
sites nine 9 11 3
# Deeper than the frames kept: the walk stops early, and the kept frames are the same.
trace deep 5 60 CUDATRACE_STACK_DEPTH=8
sites deep 60 8 5
trace max 2 100 CUDATRACE_STACK_DEPTH=64
sites max 100 64 2
finish
