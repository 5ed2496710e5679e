# Expectations for tests/samples/py_torch.py.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
# cuBLAS picks the GEMM kernel (nvjet_*, sm90_xmma_*, cutlass_*...): count the launches that are not
# PyTorch's own (at::native) instead of guessing the name.
expect_calls "at least 20 GEMM (non-PyTorch) kernel launches" -ge 20 family=launch \
    'kernel!=*at::native*' 'kernel!=*at6native*'
expect_calls "at least 10 elementwise kernel launches" -ge 10 family=launch 'kernel=*elementwise_kernel*'
expect_calls "allocations" -ge 1 family=alloc
expect_calls "2 H2D copies of 262144 bytes" -ge 2 "$H2D" bytes=262144
expect_calls "1 D2H copy of 262144 bytes" -ge 1 "$D2H" bytes=262144
note_kernels
