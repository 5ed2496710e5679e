# Expectations for tests/samples/py_torch_leak.py (a 64 MiB tensor kept past the end, a 256 MiB one freed).
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "allocations" -ge 2 family=alloc
expect_calls "frees (empty_cache)" -ge 1 family=free
if memory_report && stacks_built_in; then
    memory_check "at least 64 MiB still allocated at exit, with call stacks" '
s = r["leak_summary"]
assert r["stacks_recorded"] and s["bytes"] >= 64 << 20, s
assert any(l["stack"] for l in r["leaks"]), "no leak site has a stack"'
    memory_check "peak of at least 320 MiB" 'assert r["peak"]["bytes"] >= 320 << 20, r["peak"]["bytes"]'
    memory_check "top frames of the leak are native code outside the driver and runtime" '
mods = [f.get("module", "?") for l in r["leaks"] for f in l["stack"][:1]]
assert mods and not any("libcuda.so" in m or "libcudart" in m for m in mods), mods'
fi
