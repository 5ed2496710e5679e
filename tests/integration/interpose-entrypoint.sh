#!/bin/sh
# cudaGetDriverEntryPoint[ByVersion] through a stand-in runtime (interpose-entrypoint.c over
# interpose-cudart.c's libcudart.so.13): the pointers are our trampolines of the exact variants and calls
# through them are traced; with no runtime loaded, the export answers with a CUDA error.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
run_pair entrypoint "$bin/interpose-entrypoint"
grep -q WRONG "$tmp/entrypoint.traced" && fail "$(grep WRONG "$tmp/entrypoint.traced")"
grep -q '^cuNoSuchFunction: e=0 status=1 p=NULL$' "$tmp/entrypoint.traced" || fail "unknown symbol" # the simulated driver's answer
grep -q '^calls: r=0 allocated=yes$' "$tmp/entrypoint.traced" || fail "calls through the pointers"
expect_count entrypoint 1 '^call .* name=cuInit variant=cuInit result=0 '
expect_count entrypoint 1 '^call .* name=cuMemAlloc variant=cuMemAlloc_v2 result=0 .* alloc bytes=1048576 '
expect_count entrypoint 0 '^untraced '

# No runtime loaded: a weak reference binds to our export only when traced, which must fail cleanly.
LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$bin/interpose-noruntime" >"$tmp/none.plain" || fail "noruntime untraced"
grep -q '^no cudaGetDriverEntryPointByVersion$' "$tmp/none.plain" || fail "noruntime untraced: $(cat "$tmp/none.plain")"
CUDATRACE_OUTPUT=$tmp/none.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
    "$bin/interpose-noruntime" >"$tmp/none.traced" || fail "noruntime traced: exit $?"
grep -q '^e=3 p=NULL status=1$' "$tmp/none.traced" || fail "noruntime traced: $(cat "$tmp/none.traced")"
exit 0
