# Expectations for tests/samples/py_jax.py.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
# XLA names (and may fuse) its kernels: assert that work was launched, not which kernel.
expect_calls "at least 1 launch" -ge 1 family=launch kind!=host_func
expect_calls "allocations" -ge 1 family=alloc
expect_calls "H2D copies" -ge 2 "$H2D"
expect_calls "D2H copies" -ge 1 "$D2H"
note_kernels
