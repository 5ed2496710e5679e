# Expectations for tests/samples/py_jax_pystack.py (two 32 MiB arrays made from Cache.grow's KEEP line and a
# 64 MiB temporary from Model.forward's TEMP line, all live at once): the memory report's peak names those
# Python lines, below JAX's own frames.  JAX frees every buffer at interpreter exit, so nothing is leaked;
# its platform allocator maps virtual memory (cuMemCreate, cuMemMap) for each buffer.
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "allocations" -ge 3 family=alloc
expect_calls "frees" -ge 3 family=free
marked_lines py_jax_pystack
if memory_report && stacks_built_in && memory_py_report; then
    py_peak_check
    memory_py_check "--group-by python: Cache.grow holds its 64 MiB at the peak, counted once (not again for the mappings)" '
held = sum(s["bytes"] for s in p["peak"]["sites"] if s["stack"] and (s["stack"][0]["function"], s["stack"][0]["line"]) == ("Cache.grow", keep))
assert held == 64 << 20, held
assert sum(s["bytes"] for s in p["peak"]["sites"]) <= p["peak"]["bytes"], p["peak"]'
fi
