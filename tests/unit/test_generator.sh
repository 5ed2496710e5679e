#!/bin/sh
# scripts/gen-wrappers.py on a small hand-written header (test_generator.h): derived symbols, versions,
# per-thread flags, families, decoders and hooks by key, parameter parsing (multi-line, unnamed, function
# pointer, void, #if-guarded, commented out), what it refuses, and the C it writes.
set -u
src=$CT_TOP_SRCDIR/tests/unit
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
gen() { "$CT_PYTHON3" "$CT_TOP_SRCDIR/scripts/gen-wrappers.py" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

gen --list --decls "$src/test_generator_decls.h" "$src/test_generator.h" >"$tmp/list" 2>"$tmp/err" ||
    fail "generator failed: $(cat "$tmp/err")"
diff -u "$src/test_generator.expected" "$tmp/list" || fail "variants differ from test_generator.expected"
grep -q 'skipped .*PFN_cuNotAResult_v1000 returns int' "$tmp/err" || fail "a non-CUresult typedef was not reported"
grep -q cuInComment "$tmp/list" && fail "a typedef inside a comment was read"
grep -q cuWindowsOnly "$tmp/list" && fail "a typedef under #ifdef _WIN32 was read"
grep -q '^cuNotWindows ' "$tmp/list" || fail "the #else branch of #ifdef _WIN32 was dropped"

# Declarations the generator must refuse: a decoder for no variant, a decoder without a payload struct.
printf 'void ct_dec_cuNoSuchFunction(struct ct_pl_copy *pl, CUresult r);\n' >"$tmp/unknown.h"
gen --list --decls "$tmp/unknown.h" "$src/test_generator.h" >/dev/null 2>"$tmp/err" && fail "unknown decoder accepted"
grep -q 'ct_dec_cuNoSuchFunction' "$tmp/err" || fail "unknown decoder not named: $(cat "$tmp/err")"
printf 'void ct_dec_cuInit(int *pl, CUresult r, unsigned int Flags);\n' >"$tmp/nopayload.h"
gen --list --decls "$tmp/nopayload.h" "$src/test_generator.h" >/dev/null 2>&1 && fail "decoder without payload accepted"
printf 'typedef CUresult (CUDAAPI *PFN_cuInit_v2000)(unsigned int Flags);\n' >"$tmp/twice.h"
gen --list "$src/test_generator.h" "$tmp/twice.h" >/dev/null 2>&1 && fail "a variant defined twice was accepted"

# The C it writes: one exported trampoline per variant under its symbol, the PFN type on the real call,
# decoders and hooks called with the arguments, ids in the header.
gen -o "$tmp/w.c" --header "$tmp/w.h" --decls "$src/test_generator_decls.h" "$src/test_generator.h" 2>/dev/null ||
    fail "generating C failed"
for sym in cuMemAlloc_v2 cuInit cuLaunchHostFunc cuLaunchHostFunc_ptsz cuMemcpyHtoD_v2_ptds cuMemcpyHtoD_v2 \
    cuCtxSynchronize cuCtxPushCurrent cuMemAlloc cuMemcpyHtoD; do
    grep -q "^CT_EXPORT CUresult ct_tr_$sym(.*) __asm__(\"$sym\");\$" "$tmp/w.c" || fail "no trampoline for $sym"
done
[ "$(grep -c '^CT_EXPORT' "$tmp/w.c")" = 11 ] || fail "not 11 trampolines"
grep -q 'PFN_cuMemcpyHtoD_v7000_ptds real = (PFN_cuMemcpyHtoD_v7000_ptds)CT_REAL(CT_ID_cuMemcpyHtoD_v2_ptds);' "$tmp/w.c" ||
    fail "real call type"
# A launch: decoded without its name, the recorder's shortcut first, the name looked up only when it fails.
grep -q 'ct_dec_cuLaunchHostFunc(&pl, r, hStream, fn, userData);' "$tmp/w.c" || fail "launch decoder call"
grep -q 'if (!ct_rec_launch_again(CT_ID_cuLaunchHostFunc, r, t0, t1, &pl, name_gen)) {' "$tmp/w.c" || fail "launch shortcut"
grep -q 'pl.name_id = ct_launch_name_id(&pl);' "$tmp/w.c" || fail "launch name"
# Headers by name or relative path: the build machine's absolute paths must not end up in the C.
grep -n '^#include "/' "$tmp/w.c" && fail "a header included by absolute path"
grep -q -x '#include <test_generator.h>' "$tmp/w.c" || fail "the typedef header is not included by name"
grep -q 'ct_dec_cuMemAlloc_v2000((struct ct_pl_alloc \*)(c + 1), r, dptr, bytesize);' "$tmp/w.c" || fail "decoder call"
grep -q 'ct_hook_cuInit(r, Flags);' "$tmp/w.c" || fail "hook call"
grep -q 'CUresult ct_tr_cuCtxPushCurrent(CUcontext a0)' "$tmp/w.c" || fail "unnamed parameter not named"
grep -q 'return real();' "$tmp/w.c" || fail "void parameter list"
grep -q '{"cuMemcpyHtoD", "cuMemcpyHtoD_v2_ptds", 7000, CT_VARIANT_PTDS, CT_FAM_COPY},' "$tmp/w.c" || fail "table row"
grep -q 'CT_ID_cuMemcpyHtoD_v2_ptds = 4,' "$tmp/w.h" || fail "id in the header"
grep -q '#define CT_PFN_cuMemAlloc PFN_cuMemAlloc_v2000' "$tmp/w.h" || fail "PFN in the header"

# An interop typedef header is included under the HAVE_ macros of the system headers it needs.
printf 'typedef CUresult (CUDAAPI *PFN_cuVDPAUGetDevice_v3010)(CUdevice_v1 *pDevice, VdpDevice vdpDevice);\n' \
    >"$tmp/cudaVDPAUTypedefs.h"
gen -o "$tmp/v.c" "$src/test_generator.h" "$tmp/cudaVDPAUTypedefs.h" 2>/dev/null || fail "generating with VDPAU failed"
grep -A1 -x '#if defined(HAVE_VDPAU_VDPAU_H)' "$tmp/v.c" | grep -q -x "#include <cudaVDPAUTypedefs.h>" ||
    fail "the VDPAU typedefs are not guarded by HAVE_VDPAU_VDPAU_H"
grep -B1 -x '#include <test_generator.h>' "$tmp/v.c" | grep -q '^#if' && fail "a plain typedef header was guarded"

# The default set counted, not timed (--counted FILE): every variant of a listed function starts counted and
# its trampoline tests its byte with the gate, no other does; a counted call goes through ct_passed, after
# the variant's hook (cuInit's).  A name the headers lack, a name listed twice or without its reason: refused.
grep -q 'ct_api_skip\[CT_ID' "$tmp/w.c" && fail "a variant counted without --counted"
grep -q -x 'uint8_t ct_api_skip\[CT_API_COUNT\];' "$tmp/w.c" || fail "ct_api_skip without --counted"
printf '# a comment\n\ncuMemcpyHtoD   a reason\ncuInit\tits hook must still run\n' >"$tmp/counted.txt"
gen -o "$tmp/c.c" --header "$tmp/c.h" --decls "$src/test_generator_decls.h" --counted "$tmp/counted.txt" \
    "$src/test_generator.h" 2>/dev/null || fail "generating with --counted failed"
for sym in cuMemcpyHtoD cuMemcpyHtoD_v2 cuMemcpyHtoD_v2_ptds cuInit; do
    grep -q -x "    \[CT_ID_$sym\] = 1," "$tmp/c.c" || fail "$sym does not start counted"
    grep -q -x "    if (__builtin_expect(ct_guard | ct_gate | ct_api_skip\[CT_ID_$sym\], 0)) {" "$tmp/c.c" ||
        fail "$sym's trampoline does not test its byte"
done
[ "$(grep -c '^    \[CT_ID_' "$tmp/c.c")" = 4 ] || fail "not 4 variants counted"
[ "$(grep -c 'ct_gate | ct_api_skip' "$tmp/c.c")" = 4 ] || fail "a trampoline outside the set tests its byte"
grep -q 'return ct_passed(CT_ID_cuMemcpyHtoD_v2, how, real(dstDevice, srcHost, ByteCount));' "$tmp/c.c" ||
    fail "a counted call without a hook"
grep -A8 'const int how = ct_unrecorded(CT_ID_cuInit);' "$tmp/c.c" | tr -d '\n ' |
    grep -q 'if(how){CUresultr=real(Flags);ct_busy_enter();ct_hook_cuInit(r,Flags);ct_busy_leave();returnct_passed(CT_ID_cuInit,how,r);}' ||
    fail "a counted call's hook"
for bad in 'cuNoSuchFunction a reason' 'cuInit' 'cuInit a reason\ncuInit again'; do
    printf "$bad\n" >"$tmp/bad.txt"
    gen -o "$tmp/b.c" --counted "$tmp/bad.txt" "$src/test_generator.h" 2>"$tmp/err" && fail "--counted took '$bad'"
    grep -q 'gen-wrappers: .*bad.txt:[12]: cu' "$tmp/err" || fail "'$bad': $(cat "$tmp/err")"
done
exit 0
