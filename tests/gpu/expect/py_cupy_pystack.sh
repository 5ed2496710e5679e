# Expectations for tests/samples/py_cupy_pystack.py (two 32 MiB arrays kept from Cache.grow's KEEP line, a
# 64 MiB temporary from Model.forward's TEMP line, freed): the memory report names those Python lines, below
# CuPy's own Python frames (cupy/_creation/...).
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "allocations" -ge 3 family=alloc
expect_calls "frees (free_all_blocks)" -ge 1 family=free
marked_lines py_cupy_pystack
if memory_report && stacks_built_in; then
    keep_leak_check py_cupy_pystack
    if memory_py_report; then
        py_top_leak_check
        py_peak_check
    fi
fi
