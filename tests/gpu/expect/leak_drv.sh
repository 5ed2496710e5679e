# Expectations for tests/samples/leak_drv.c (driver API: leaks 3 x 1 MiB from leak_cache_buffers, a 7 MiB
# peak with 2 x 2 MiB from scratch_roundtrip).  Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "3 device allocations of 1 MiB" -eq 3 family=alloc bytes=1048576 kind=device
expect_calls "2 device allocations of 2 MiB" -eq 2 family=alloc bytes=2097152 kind=device
expect_no_failed_calls
if memory_report; then
    memory_check "leak summary: 3145728 bytes in 3 allocations; peak 7340032 bytes" '
s = r["leak_summary"]
assert (s["bytes"], s["allocations"]) == (3145728, 3), s
assert r["peak"]["bytes"] == 7340032, r["peak"]["bytes"]'
    if stacks_built_in; then
        memory_check "leak: 3145728 bytes in 3 allocations from leak_cache_buffers" '
assert r["stacks_recorded"], r
assert [(l["bytes"], l["allocations"], l["stack"][0]["function"]) for l in r["leaks"]] == \
    [(3145728, 3, "leak_cache_buffers")], r["leaks"]'
        memory_check "peak: 7340032 bytes held by both call sites" '
held = {s["stack"][0]["function"]: s["bytes"] for s in r["peak"]["sites"]}
assert held == {"leak_cache_buffers": 3145728, "scratch_roundtrip": 4194304}, held'
    fi
fi
