# Expectations for tests/samples/py_torch.py.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
# cuBLAS picks the GEMM kernel (nvjet_*, sm90_xmma_*, cutlass_*...): count the launches that are not
# PyTorch's own (at::native, mangled _ZN2at6native) instead of guessing the name.
launches=$(calls ' launch kernel=')
expect_value "at least 20 GEMM (non-PyTorch) kernel launches" -ge 20 \
    "$((launches - $(calls ' launch kernel=[^ ]*(at6native|at::native)')))"
expect_calls "at least 10 elementwise kernel launches" -ge 10 "$(re_launch elementwise_kernel)"
expect_calls "allocations" -ge 1 "$(re_alloc "$ANY_BYTES")"
expect_calls "2 H2D copies of 262144 bytes" -ge 2 "$(re_h2d 262144)"
expect_calls "1 D2H copy of 262144 bytes" -ge 1 "$(re_d2h 262144)"
note_kernels
