# The nvcc-built runtime samples and the Python samples of the real-GPU suite (tests/gpu/run-gpu-tests).
# Not built by `make check` (nvcc is slow and they only run on a GPU): `make gpu-samples` builds them, and
# `make check-gpu` and scripts/gpu-bundle call it.  Nothing to build when configure found no nvcc.

GPU_CU_SAMPLES = tests/samples/rt_vectoradd.cu tests/samples/rt_threads.cu tests/samples/rt_graph.cu \
	tests/samples/rt_entry_points.cu tests/samples/rt_interop.cu tests/samples/rt_profiler_range.cu \
	tests/samples/rt_gpu_spin.cu tests/samples/rt_gpu_streams.cu tests/samples/rt_gpu_capture.cu \
	tests/samples/rt_gpu_exact.cu tests/samples/gpu_timer.cuh
GPU_PY_SAMPLES = \
	tests/samples/py_cuda_bindings.py \
	tests/samples/py_torch.py \
	tests/samples/py_torch_leak.py \
	tests/samples/py_torch_pystack.py \
	tests/samples/py_cupy_pystack.py \
	tests/samples/py_jax_pystack.py \
	tests/samples/py_cupy.py \
	tests/samples/py_jax.py \
	tests/samples/py_triton.py \
	tests/samples/py_numba.py \
	tests/samples/py_torch_graph.py \
	tests/samples/py_torch_gputime.py \
	tests/samples/py_torch_profiler.py \
	tests/samples/py_torchrun.py \
	tests/samples/py_torchrun_nccl.py \
	tests/samples/py_torch_analyze.py \
	tests/samples/py_torch_analyze_fixed.py \
	tests/samples/py_torch_ddp_slow.py
EXTRA_DIST += $(GPU_CU_SAMPLES) $(GPU_PY_SAMPLES)

GPU_SAMPLES = \
	tests/samples/rt_vectoradd \
	tests/samples/rt_vectoradd_shared \
	tests/samples/rt_vectoradd_ptds \
	tests/samples/rt_threads \
	tests/samples/rt_graph \
	tests/samples/rt_profiler_range \
	tests/samples/rt_entry_points \
	tests/samples/rt_interop \
	tests/samples/rt_gpu_spin \
	tests/samples/rt_gpu_streams \
	tests/samples/rt_gpu_capture \
	tests/samples/rt_gpu_exact
CLEANFILES += $(GPU_SAMPLES)

# Hopper code plus its PTX (the driver JIT-compiles that for newer GPUs).  Override for another GPU, e.g.
# `make gpu-samples NVCC_GENCODE=-arch=native`.
NVCC_GENCODE = -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCC_SAMPLE_FLAGS = -O2 -std=c++17 -Xcompiler -Wall,-Wextra $(NVCC_GENCODE)
# The samples that also call the driver API directly link its stub (libcuda.so.1 at run time: the driver).
NVCC_DRIVER_LINK = -L$(CUDA_STUBS_DIR) -lcuda
nvcc_sample = $(AM_V_GEN)$(MKDIR_P) $(@D) && $(NVCC) $(NVCC_SAMPLE_FLAGS)

.PHONY: gpu-samples
if HAVE_NVCC
gpu-samples: $(GPU_SAMPLES) bench/overhead bench/events_ab
else
gpu-samples:
	@echo "gpu-samples: configured without nvcc, nothing to build"
endif

# The default build links the static runtime; the other two are the routes the shared runtime and the
# per-thread default stream take.  The shared one finds libcudart.so.13 through its RUNPATH.
tests/samples/rt_vectoradd: $(srcdir)/tests/samples/rt_vectoradd.cu
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_vectoradd.cu
tests/samples/rt_vectoradd_shared: $(srcdir)/tests/samples/rt_vectoradd.cu
	$(nvcc_sample) -cudart shared -Xlinker -rpath -Xlinker $(CUDA_DIR)/lib64 -o $@ \
		$(srcdir)/tests/samples/rt_vectoradd.cu
tests/samples/rt_vectoradd_ptds: $(srcdir)/tests/samples/rt_vectoradd.cu
	$(nvcc_sample) --default-stream per-thread -o $@ $(srcdir)/tests/samples/rt_vectoradd.cu
tests/samples/rt_threads: $(srcdir)/tests/samples/rt_threads.cu
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_threads.cu
tests/samples/rt_graph: $(srcdir)/tests/samples/rt_graph.cu
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_graph.cu
tests/samples/rt_profiler_range: $(srcdir)/tests/samples/rt_profiler_range.cu
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_profiler_range.cu
# Entry points by version: the shared runtime, so that cudaGetDriverEntryPointByVersion is the exported one.
tests/samples/rt_entry_points: $(srcdir)/tests/samples/rt_entry_points.cu
	$(nvcc_sample) -cudart shared -Xlinker -rpath -Xlinker $(CUDA_DIR)/lib64 -o $@ \
		$(srcdir)/tests/samples/rt_entry_points.cu $(NVCC_DRIVER_LINK)
tests/samples/rt_interop: $(srcdir)/tests/samples/rt_interop.cu
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_interop.cu $(NVCC_DRIVER_LINK)
# GPU time (CUDATRACE_GPU_TIME): kernels that time themselves on %globaltimer (gpu_timer.cuh), and a
# global-mode capture beside a launching thread.
tests/samples/rt_gpu_spin: $(srcdir)/tests/samples/rt_gpu_spin.cu $(srcdir)/tests/samples/gpu_timer.cuh
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_gpu_spin.cu
tests/samples/rt_gpu_streams: $(srcdir)/tests/samples/rt_gpu_streams.cu $(srcdir)/tests/samples/gpu_timer.cuh
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_gpu_streams.cu
tests/samples/rt_gpu_capture: $(srcdir)/tests/samples/rt_gpu_capture.cu
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_gpu_capture.cu
tests/samples/rt_gpu_exact: $(srcdir)/tests/samples/rt_gpu_exact.cu $(srcdir)/tests/samples/gpu_timer.cuh
	$(nvcc_sample) -o $@ $(srcdir)/tests/samples/rt_gpu_exact.cu
