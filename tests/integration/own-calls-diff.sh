#!/bin/sh
# bench/run-own-calls' comparison of two CUPTI count files (`name count` lines): the functions counted
# differently, with both counts and the difference, sorted by name; nothing for equal files.
set -u
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run=$CT_TOP_SRCDIR/bench/run-own-calls
printf 'cuInit 1\ncuLaunchKernel 100\ncuMemcpyHtoD_v2 5\ncuMemFree_v2 2\n' >"$tmp/a"
printf 'cuMemcpyHtoD_v2 5\ncuInit 1\ncuPointerGetAttributes 5\ncuLaunchKernel 100\ncuCtxGetDevice 3\n' >"$tmp/b"
bash "$run" --diff "$tmp/a" "$tmp/b" >"$tmp/out" || fail "exit $?"
printf '  cuCtxGetDevice 0 3 +3\n  cuMemFree_v2 2 0 -2\n  cuPointerGetAttributes 0 5 +5\n' >"$tmp/want"
diff -u "$tmp/want" "$tmp/out" || fail "differences"
bash "$run" --diff "$tmp/a" "$tmp/a" >"$tmp/same" && [ ! -s "$tmp/same" ] || fail "equal files: $(cat "$tmp/same")"
bash "$run" --diff "$tmp/a" 2>/dev/null && fail "one file accepted"
exit 0
