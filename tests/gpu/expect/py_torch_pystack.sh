# Expectations for tests/samples/py_torch_pystack.py (two 32 MiB tensors kept from Cache.grow's KEEP line, a
# 64 MiB temporary from Model.forward's TEMP line, freed): the memory report names those Python lines.
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "allocations" -ge 2 family=alloc
expect_calls "frees (empty_cache)" -ge 1 family=free
marked_lines py_torch_pystack
if memory_report && stacks_built_in; then
    keep_leak_check py_torch_pystack
    if memory_py_report; then
        py_top_leak_check
        py_peak_check
    fi
fi
