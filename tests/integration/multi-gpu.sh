#!/bin/sh
# Two devices in one process, on the simulated driver: tests/samples/multi_gpu_peer (contexts on both
# devices, every peer copy) traced, and what a reader sees in the tables: the copies table's Peer-to-Peer
# row with its count and bytes, each peer copy's devices in the calls listing, and the memory report's rows
# per device.  (The same trace's JSON is checked by its GPU-suite expectation, run by harness-sim.sh.)
# Then with one device (SIM_DEVICES=1) the GPU runner counts the sample as a SKIP, not a PASS or a FAIL.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report

run_pair peer "$CT_TOP_BUILDDIR/tests/samples/multi_gpu_peer"
grep -qx 'multi_gpu_peer: PASSED' "$tmp/peer.plain" || fail "the sample did not pass: $(tail -n 1 "$tmp/peer.plain")"

# The copies table: 6 peer copies, 2 x 1 MiB, 2 x 128 KiB (3D) and 2 x 64 KiB (cuMemcpyDtoD, cuMemcpyAsync).
"$report" summary -s copies -f table "$tmp/peer.ctrace" >"$tmp/copies" 2>&1 || fail "summary -s copies: exit $?"
grep -Eq '^ +6 +2,490,368 +415,061\.3 +65,536 +1,048,576 .* \[CUDA memcpy Peer-to-Peer\]$' "$tmp/copies" ||
    fail "copies table: no Peer-to-Peer row of 6 copies, 2,490,368 bytes: $(cat "$tmp/copies")"

# The calls listing: each peer copy with its bytes and its two devices.
"$report" calls -f table "$tmp/peer.ctrace" >"$tmp/calls" 2>&1 || fail "calls: exit $?"
for want in 'cuMemcpyPeer .*bytes=1048576 .*src_device=0 dst_device=1' \
    'cuMemcpyPeerAsync .*bytes=1048576 .*src_device=1 dst_device=0' \
    'cuMemcpy3DPeer .*bytes=131072 .*width=512 height=64 depth=4 src_device=0 dst_device=1' \
    'cuMemcpy3DPeerAsync .*bytes=131072 .*src_device=1 dst_device=0' \
    'cuMemcpyDtoD .*bytes=65536 .*src_device=0 dst_device=1' 'cuMemcpyAsync .*bytes=65536 .*src_device=1 dst_device=0'; do
    [ "$(grep -cE "$want" "$tmp/calls")" = 1 ] || fail "calls listing: no single line matching '$want'"
done
[ "$(grep -c 'operation="\[CUDA memcpy Peer-to-Peer\]"' "$tmp/calls")" = 6 ] || fail "calls listing: not 6 peer copies"

# The memory report: a row per device, 2 allocations each, all freed.
"$report" memory -f table "$tmp/peer.ctrace" >"$tmp/memory" 2>&1 || fail "memory: exit $?"
grep -Eq '^ +0 +device +2 +2,097,152 +2 +2,097,152 +2,097,152 ' "$tmp/memory" ||
    fail "memory report: no device 0 row of 2 allocations, 2,097,152 bytes: $(cat "$tmp/memory")"
grep -Eq '^ +1 +device +2 +1,310,720 +2 +1,310,720 +1,310,720 ' "$tmp/memory" ||
    fail "memory report: no device 1 row of 2 allocations, 1,310,720 bytes"
grep -q '^LEAK SUMMARY: 0 bytes in 0 allocations' "$tmp/memory" || fail "memory report: leaks"

# One device: the sample exits 77 and the runner says SKIP, with its reason, and counts it as skipped.
SIM_DEVICES=1 LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$CT_TOP_BUILDDIR/tests/samples/multi_gpu_peer" 2>"$tmp/one.err"
rc=$?
[ "$rc" = 77 ] || fail "one device: exit $rc, want 77"
grep -qx 'multi_gpu_peer: skipped: needs 2 GPUs, found 1' "$tmp/one.err" || fail "one device: $(cat "$tmp/one.err")"
SIM_DEVICES=1 bash "$CT_TOP_SRCDIR/tests/gpu/run-gpu-tests" --simulated multi_gpu_peer >"$tmp/runner" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "runner with one device: exit $rc: $(cat "$tmp/runner")"
grep -qx 'SKIP multi_gpu_peer: needs 2 GPUs, found 1' "$tmp/runner" || fail "runner: no SKIP line: $(cat "$tmp/runner")"
grep -q '^PASS multi_gpu_peer\|^FAIL' "$tmp/runner" && fail "runner: the skipped sample passed or failed: $(cat "$tmp/runner")"
grep -Eqx '[0-9]+ passed, 0 failed, 1 skipped' "$tmp/runner" || fail "runner: summary $(tail -n 1 "$tmp/runner")"
echo "ok: multi-gpu"
