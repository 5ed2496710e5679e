#!/bin/sh
# Symbolization through libdw: inline_drv allocates in a static inline function forced inline into
# keep_buffers.  The memory report shows the inlined function at its own line as a frame of its own, then
# keep_buffers at the line of the inlined call.  A stripped copy of the program is symbolized as well from
# its debug file, found by build id under CUDATRACE_DEBUG_DIRS, and another's by .gnu_debuglink (in the
# module's .debug/ directory, and under a debug directory followed by the module's directory).
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SAMPLE=$CT_TOP_BUILDDIR/tests/samples/inline_drv
SRC=$CT_TOP_SRCDIR/tests/samples/inline_drv.c
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }
grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h" || { echo "no call stacks in this build" >&2; exit 77; }
grep -q '^#define HAVE_LIBDW 1' "$CT_TOP_BUILDDIR/config.h" || { echo "report built without libdw" >&2; exit 77; }
command -v objcopy >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 || { echo "no binutils" >&2; exit 77; }

ALLOC_LINE=$(grep -n '/\* INLINE-ALLOC' "$SRC" | cut -d: -f1)
CALL_LINE=$(grep -n '/\* INLINE-CALL' "$SRC" | cut -d: -f1)
export ALLOC_LINE CALL_LINE

# dirs_report DIRS EXPECTED_RC ARGS...: run_report with CUDATRACE_DEBUG_DIRS=DIRS
dirs_report() {
    CUDATRACE_DEBUG_DIRS=$1
    export CUDATRACE_DEBUG_DIRS
    shift
    run_report "$@"
    unset CUDATRACE_DEBUG_DIRS
}

# trace NAME PROGRAM: run PROGRAM traced into $TMP/NAME.ct
trace() {
    env CUDATRACE_OUTPUT="$TMP/$1.ct" CUDATRACE_QUIET=1 \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$2" >"$TMP/$1.out" 2>"$TMP/$1.err" ||
        fail "$2 traced failed: $(cat "$TMP/$1.err")"
    expect_eq "$1: output" "inline_drv: PASSED" "$(cat "$TMP/$1.out")"
}

# check_inlined WHAT: the memory report in $TMP/out (JSON) shows the inlined frame, then its caller
check_inlined() {
    if ! "$PY" - "$TMP/out" >"$TMP/pyerr" 2>&1 <<'PYEOF'; then fail "$1: $(cat "$TMP/pyerr")"; fi
import json, os, sys
r = json.load(open(sys.argv[1]))
assert len(r["leaks"]) == 1, r["leaks"]
leak = r["leaks"][0]
assert (leak["bytes"], leak["allocations"]) == (2 << 20, 2), leak
inl, caller = leak["stack"][0], leak["stack"][1]
assert inl["function"] == "alloc_device_buffer" and inl.get("inlined") is True, inl
assert "offset" not in inl, inl
assert inl["file"].endswith("inline_drv.c") and inl["line"] == int(os.environ["ALLOC_LINE"]), inl
assert caller["function"] == "keep_buffers" and "inlined" not in caller and caller["offset"] > 0, caller
assert caller["file"].endswith("inline_drv.c") and caller["line"] == int(os.environ["CALL_LINE"]), caller
assert inl["address"] == caller["address"] and inl["module"] == caller["module"], (inl, caller)
assert leak["stack"][2]["function"] == "main", leak["stack"]
PYEOF
}

# The program as built, with its debug information.
trace plain "$SAMPLE"
run_report 0 memory --format json "$TMP/plain.ct"
check_inlined "inlined frame"
run_report 0 memory --format table "$TMP/plain.ct"
grep -q "^    #0 alloc_device_buffer (inlined) (inline_drv.c:$ALLOC_LINE) \[inline_drv\]$" "$TMP/out" ||
    fail "memory table: no inlined frame: $(cat "$TMP/out")"
grep -q "^    #1 keep_buffers+0x[0-9a-f]* (inline_drv.c:$CALL_LINE) \[inline_drv\]$" "$TMP/out" ||
    fail "memory table: the inlined function's caller is not #1"
run_report 0 stacks --api cuMemAlloc --format csv "$TMP/plain.ct"
grep -q "alloc_device_buffer (inlined) (inline_drv.c:$ALLOC_LINE) \[inline_drv\] | keep_buffers+0x" "$TMP/out" ||
    fail "stacks csv: no inlined frame"
run_report 0 export --format chrome -o "$TMP/chrome.json" "$TMP/plain.ct"
grep -q '"stack":\["alloc_device_buffer (inlined)' "$TMP/chrome.json" || fail "chrome export: no inlined frame"

# Stripped (no .symtab, no DWARF), the debug file installed by build id.
BUILD_ID=$(readelf -n "$SAMPLE" | sed -n 's/.*Build ID: *//p')
[ -n "$BUILD_ID" ] || fail "inline_drv has no build id"
mkdir -p "$TMP/bid" "$TMP/debug/.build-id/$(echo "$BUILD_ID" | cut -c1-2)"
objcopy --only-keep-debug "$SAMPLE" "$TMP/debug/.build-id/$(echo "$BUILD_ID" | cut -c1-2)/$(echo "$BUILD_ID" | cut -c3-).debug"
objcopy --strip-all "$SAMPLE" "$TMP/bid/inline_drv"
trace bid "$TMP/bid/inline_drv"
run_report 0 memory --format json "$TMP/bid.ct"
py '
import json, sys
top = json.load(open(sys.argv[1]))["leaks"][0]["stack"][0]
assert "file" not in top and top.get("function") != "alloc_device_buffer", top
'
dirs_report "$TMP/nowhere:$TMP/debug" 0 memory --format json "$TMP/bid.ct"
check_inlined "stripped, debug file by build id"

# Stripped with a .gnu_debuglink: the debug file in the module's .debug/ directory, then under a debug
# directory followed by the module's own directory.
for where in dotdebug debugdir; do
    mkdir -p "$TMP/$where/.debug"
    objcopy --only-keep-debug "$SAMPLE" "$TMP/$where/.debug/inline_drv.dbg"
    objcopy --strip-all --add-gnu-debuglink="$TMP/$where/.debug/inline_drv.dbg" "$SAMPLE" "$TMP/$where/inline_drv"
    trace "$where" "$TMP/$where/inline_drv"
done
run_report 0 memory --format json "$TMP/dotdebug.ct"
check_inlined "stripped, debug file by debuglink in .debug/"
mkdir -p "$TMP/dirs$TMP/debugdir"
mv "$TMP/debugdir/.debug/inline_drv.dbg" "$TMP/dirs$TMP/debugdir/"
run_report 0 memory --format json "$TMP/debugdir.ct"
py '
import json, sys
assert "file" not in json.load(open(sys.argv[1]))["leaks"][0]["stack"][0]
'
dirs_report "$TMP/dirs" 0 memory --format json "$TMP/debugdir.ct"
check_inlined "stripped, debug file by debuglink under CUDATRACE_DEBUG_DIRS"

# A debug file of another build is not used: the module file changed since the trace.
cp "$TMP/bid/inline_drv" "$TMP/bid/saved"
printf 'int main(void){return 0;}\n' >"$TMP/other.c"
if cc -o "$TMP/bid/inline_drv" "$TMP/other.c" 2>/dev/null; then
    dirs_report "$TMP/debug" 0 memory --format json "$TMP/bid.ct"
    grep -q 'inline_drv changed since the trace' "$TMP/err" || fail "no message for a changed module file"
    py '
import json, sys
assert "function" not in json.load(open(sys.argv[1]))["leaks"][0]["stack"][0]
'
fi
finish
