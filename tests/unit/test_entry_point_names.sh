#!/bin/sh
# The exported names gen-wrappers.py derives for every variant of the toolkit's cudaTypedefs.h (and of the
# GL/EGL/VDPAU interop typedef headers configure found usable: CT_CUDA_INTEROP_TYPEDEFS), checked against
# what the CUDA 13.0 runtime was handed by the real driver (all 440 requests of
# tests/data/cudart-13.0-entry-point-requests.txt), cuda.h's (cudaGL.h's, ...) name macros and declarations,
# and the exports of the toolkit's libcuda link stub.  One wrong mapping fails; so must a corrupted copy of
# the request table.
set -u
inc=$CT_CUDA_DIR/include
requests=$CT_TOP_SRCDIR/tests/data/cudart-13.0-entry-point-requests.txt
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
gen() { "$CT_PYTHON3" "$CT_TOP_SRCDIR/scripts/gen-wrappers.py" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

headers=$inc/cudaTypedefs.h
[ -f "$inc/cudaProfilerTypedefs.h" ] && headers="$headers $inc/cudaProfilerTypedefs.h"
set -- --verify-requests "$requests" --verify-cuda-h "$inc/cuda.h"
# Rows of the request table for each interop API; those of the APIs not configured are not checked.
gl='^cu\(GL\|GraphicsGL\)'
egl='^cu\(EGL\|GraphicsEGL\|GraphicsResourceGetMappedEgl\)'
vdpau='^cu\(VDPAU\|GraphicsVDPAU\)'
unchecked=0
for api in GL EGL VDPAU; do
    case " ${CT_CUDA_INTEROP_TYPEDEFS:-} " in
    *"/cuda${api}Typedefs.h "*)
        headers="$headers $inc/cuda${api}Typedefs.h"
        set -- "$@" --verify-cuda-h "$inc/cuda$api.h" ;;
    *)
        eval "pattern=\$$(echo $api | tr A-Z a-z)"
        unchecked=$((unchecked + $(grep -c "$pattern" "$requests"))) ;;
    esac
done
if [ -f "$CT_CUDA_STUBS_DIR/libcuda.so" ] && command -v nm >/dev/null; then
    nm -D --defined-only "$CT_CUDA_STUBS_DIR/libcuda.so" | awk '$2 == "T" { print $3 }' >"$tmp/exports"
    set -- "$@" --verify-exports "$tmp/exports"
fi
# shellcheck disable=SC2086
gen "$@" $headers >"$tmp/out" 2>"$tmp/err" || fail "derived names disagree: $(cat "$tmp/err")"
cat "$tmp/out"
rows=$(grep -c '^[^#]' "$requests")
[ "$rows" = 440 ] || fail "expected 440 requests, the table has $rows"
checked=$(sed -n 's/^requests: \([0-9]*\) rows checked.*/\1/p' "$tmp/out")
# Every row is checked except the empty-symbol probe and those of the interop APIs not configured (their
# typedef headers need the windowing systems' own).
[ "$(grep -c "$gl" "$requests") $(grep -c "$egl" "$requests") $(grep -c "$vdpau" "$requests")" = "14 11 4" ] ||
    fail "the request table's interop rows changed"
[ "$checked" = $((rows - 1 - unchecked)) ] || fail "checked $checked of $rows rows ($unchecked interop rows not)"
[ "$unchecked" != 0 ] || grep -q '^requests: .*functions not in the headers: none$' "$tmp/out" ||
    fail "all interop headers given, yet functions missing: $(grep '^requests:' "$tmp/out")"

# A single wrong answer in the table must be caught.
sed 's/^cuMemcpyHtoD 7000 0x2 cuMemcpyHtoD_v2_ptds$/cuMemcpyHtoD 7000 0x2 cuMemcpyHtoD_ptds/' "$requests" >"$tmp/bad"
cmp -s "$requests" "$tmp/bad" && fail "test setup: the row to corrupt was not found"
# shellcheck disable=SC2086
gen --verify-requests "$tmp/bad" $headers >/dev/null 2>"$tmp/err" && fail "a wrong mapping was accepted"
grep -q 'MISMATCH .*cuMemcpyHtoD 7000 0x2: driver returns cuMemcpyHtoD_ptds, derived cuMemcpyHtoD_v2_ptds' "$tmp/err" ||
    fail "mismatch not reported: $(cat "$tmp/err")"
# So must one in an interop row, where GL is configured.
case $headers in
*/cudaGLTypedefs.h*)
    sed 's/^\(cuGLMapBufferObject 7000 0x2\) cuGLMapBufferObject_v2_ptds$/\1 cuGLMapBufferObject_ptds/' "$requests" >"$tmp/bad"
    cmp -s "$requests" "$tmp/bad" && fail "test setup: the GL row to corrupt was not found"
    # shellcheck disable=SC2086
    gen --verify-requests "$tmp/bad" $headers >/dev/null 2>"$tmp/err" && fail "a wrong GL mapping was accepted"
    grep -q 'MISMATCH .*cuGLMapBufferObject 7000 0x2: driver returns cuGLMapBufferObject_ptds, derived cuGLMapBufferObject_v2_ptds' \
        "$tmp/err" || fail "GL mismatch not reported: $(cat "$tmp/err")" ;;
esac
exit 0
