# The sample harness: tests/gpu/run-gpu-tests runs each sample untraced and traced and checks its trace with
# cudatrace-report's JSON against tests/gpu/expect/<sample>.sh (helpers: checks.sh, tracequery.py).
# `make check` runs it on the simulated driver (harness-sim.sh: the driver-API C samples); `make check-gpu`
# builds the library, the check programs (the driver-API samples) and the nvcc samples, then runs it on this
# machine's GPU (a skip where there is none).  scripts/gpu-bundle packs the same for a GPU machine without
# build tools.
TESTS += tests/integration/harness-sim.sh
GPU_EXPECTATIONS = \
	tests/gpu/expect/vectoradd.inc \
	tests/gpu/expect/rt_entry_points.sh \
	tests/gpu/expect/rt_interop.sh \
	tests/gpu/expect/ctx_drv.sh \
	tests/gpu/expect/rt_vectoradd.sh \
	tests/gpu/expect/rt_vectoradd_shared.sh \
	tests/gpu/expect/rt_vectoradd_ptds.sh \
	tests/gpu/expect/rt_threads.sh \
	tests/gpu/expect/rt_graph.sh \
	tests/gpu/expect/vectoradd_drv.sh \
	tests/gpu/expect/launch_repeat_drv.sh \
	tests/gpu/expect/leak_drv.sh \
	tests/gpu/expect/memory_report.inc \
	tests/gpu/expect/py_torch_leak.sh \
	tests/gpu/expect/py_torch_pystack.sh \
	tests/gpu/expect/py_cupy_pystack.sh \
	tests/gpu/expect/py_jax_pystack.sh \
	tests/gpu/expect/ptxjit.sh \
	tests/gpu/expect/py_cuda_bindings.sh \
	tests/gpu/expect/py_torch.sh \
	tests/gpu/expect/py_cupy.sh \
	tests/gpu/expect/py_jax.sh \
	tests/gpu/expect/py_triton.sh \
	tests/gpu/expect/py_numba.sh \
	tests/gpu/expect/rt_gpu_spin.sh \
	tests/gpu/expect/rt_gpu_streams.sh \
	tests/gpu/expect/rt_gpu_capture.sh \
	tests/gpu/expect/py_torch_graph.sh \
	tests/gpu/expect/py_torch_gputime.sh \
	tests/gpu/expect/py_torchrun.sh \
	tests/gpu/expect/py_torchrun_nccl.sh \
	tests/gpu/expect/multi_gpu_peer.sh \
	tests/gpu/expect/analyze_report.inc \
	tests/gpu/expect/py_torch_analyze.sh \
	tests/gpu/expect/py_torch_analyze_fixed.sh \
	tests/gpu/expect/py_torch_ddp_slow.sh
EXTRA_DIST += tests/gpu/run-gpu-tests tests/gpu/run-signals tests/gpu/checks.sh tests/gpu/tracequery.py tests/gpu/gputable.py \
	$(GPU_EXPECTATIONS) \
	scripts/gpu-bundle tests/integration/harness-sim.sh

.PHONY: check-gpu
check-gpu: all $(check_PROGRAMS) gpu-samples
	@rc=0; CT_TOP_SRCDIR='$(abs_top_srcdir)' CT_TOP_BUILDDIR='$(abs_top_builddir)' CT_NVCC='$(NVCC)' \
		CT_PYTHON3="$${CT_PYTHON3:-python3}" bash $(srcdir)/tests/gpu/run-gpu-tests || rc=$$?; \
	test $$rc = 0 || test $$rc = 77
