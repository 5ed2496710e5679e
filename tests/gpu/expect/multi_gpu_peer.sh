# Expectations for tests/samples/multi_gpu_peer.c: one process, two devices (the simulated driver's two in
# make check, two GPUs on a GPU machine; with one GPU the sample skips).  Contexts on both devices; 1 MiB
# each way with cuMemcpyPeer and cuMemcpyPeerAsync, a 128 KiB box each way with cuMemcpy3DPeer(Async),
# 64 KiB each way with cuMemcpyDtoD and cuMemcpyAsync (copies between two devices: Peer-to-Peer too);
# device 0 holds 2 MiB (2 allocations), device 1 1.25 MiB (2).
# shellcheck shell=bash disable=SC2154 # $dir: set by the runner
P2P='operation=*Peer-to-Peer*'
expect_calls "a context created (device 1)" -eq 1 name=cuCtxCreate
expect_calls "device 0's primary context retained" -eq 1 name=cuDevicePrimaryCtxRetain
expect_calls "6 peer copies" -eq 6 family=copy "$P2P"
expect_calls "cuMemcpyPeer: 1048576 bytes, device 0 to 1" -eq 1 name=cuMemcpyPeer bytes=1048576 \
    src_device=0 dst_device=1
expect_calls "cuMemcpyPeerAsync: 1048576 bytes, device 1 to 0" -eq 1 name=cuMemcpyPeerAsync bytes=1048576 \
    src_device=1 dst_device=0
expect_calls "cuMemcpy3DPeer: 131072 bytes (512 x 64 x 4), device 0 to 1" -eq 1 name=cuMemcpy3DPeer bytes=131072 \
    width=512 height=64 depth=4 src_device=0 dst_device=1
expect_calls "cuMemcpy3DPeerAsync: 131072 bytes, device 1 to 0" -eq 1 name=cuMemcpy3DPeerAsync bytes=131072 \
    src_device=1 dst_device=0
expect_calls "cuMemcpyDtoD: 65536 bytes, device 0 to 1, Peer-to-Peer" -eq 1 name=cuMemcpyDtoD bytes=65536 \
    src_device=0 dst_device=1 "$P2P"
expect_calls "cuMemcpyAsync: 65536 bytes, device 1 to 0, Peer-to-Peer" -eq 1 name=cuMemcpyAsync bytes=65536 \
    src_device=1 dst_device=0 "$P2P"
expect_total "summary copies: Peer-to-Peer, 6 copies" -eq 6 copies Count "Operation=*Peer-to-Peer*"
expect_total "summary copies: Peer-to-Peer, 2490368 bytes" -eq 2490368 copies 'Total Bytes' "Operation=*Peer-to-Peer*"
expect_total "summary copies: 1 Host-to-Device copy of 1 MiB (the source)" -eq 1048576 copies 'Total Bytes' \
    'Operation=*Host-to-Device*'
expect_freed family=alloc
expect_no_failed_calls

# The memory report, per device: device 0 and device 1 each with their allocations and bytes.
# shellcheck source=tests/gpu/expect/memory_report.inc
. "$expectdir/memory_report.inc"
if memory_report; then
    memory_check "memory report: device 0 has 2 allocations, 2097152 bytes; device 1 has 2, 1310720 bytes" \
        'rows = {(m["device"], m["kind"]): (m["allocs"], m["alloc_bytes"], m["peak_bytes"]) for m in r["memory"]}
assert rows == {(0, "device"): (2, 2097152, 2097152), (1, "device"): (2, 1310720, 1310720)}, rows'
    memory_check "memory report: nothing leaked" 'assert r["leak_summary"]["allocations"] == 0, r["leak_summary"]'
fi
