# Expectations for tests/samples/py_jax.py.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
# XLA names (and may fuse) its kernels: assert that work was launched, not which kernel.
expect_calls "at least 1 launch" -ge 1 ' launch kernel=[^ ]+ kind=(kernel|graph) '
expect_calls "allocations" -ge 1 "$(re_alloc "$ANY_BYTES")"
expect_calls "H2D copies" -ge 2 "$(re_h2d "$ANY_BYTES")"
expect_calls "D2H copies" -ge 1 "$(re_d2h "$ANY_BYTES")"
note_kernels
