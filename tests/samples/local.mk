# tests/samples: the driver-API C samples. They link the toolkit's libcuda stub (SONAME libcuda.so.1), not the
# simulated driver, so one binary runs on whichever libcuda.so.1 the loader finds: the simulated one
# (LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR) or a real driver. No .la is linked, so libtool makes no wrapper script.
# Each takes the directory of its PTX files as argument (default: the executable's directory).
SAMPLES_DRV_LINK = -L$(CUDA_STUBS_DIR)
SAMPLES_DRV_LDADD = -lcuda

check_PROGRAMS += tests/samples/vectoradd_drv tests/samples/ptxjit tests/samples/leak_drv
tests_samples_vectoradd_drv_SOURCES = tests/samples/vectoradd_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_vectoradd_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_vectoradd_drv_LDADD = $(SAMPLES_DRV_LDADD)
tests_samples_leak_drv_SOURCES = tests/samples/leak_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_leak_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_leak_drv_LDADD = $(SAMPLES_DRV_LDADD)
tests_samples_ptxjit_SOURCES = tests/samples/ptxjit.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_ptxjit_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_ptxjit_LDADD = $(SAMPLES_DRV_LDADD) -lm

# Inlined frames in the report: always with debug information (tests/integration/report-symbols.sh).
check_PROGRAMS += tests/samples/inline_drv
tests_samples_inline_drv_SOURCES = tests/samples/inline_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_inline_drv_CFLAGS = $(AM_CFLAGS) -g
tests_samples_inline_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_inline_drv_LDADD = $(SAMPLES_DRV_LDADD)

SAMPLES_DRV_PTX = tests/samples/vectoradd_kernel.ptx tests/samples/ptxjit_kernel.ptx tests/samples/ptxjit_device.ptx
EXTRA_DIST += $(SAMPLES_DRV_PTX)

# Contexts: created, handed between threads, primary, library-style push/pop (needs vectoradd_kernel.ptx).
check_PROGRAMS += tests/samples/ctx_drv
tests_samples_ctx_drv_SOURCES = tests/samples/ctx_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_ctx_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_ctx_drv_LDADD = $(SAMPLES_DRV_LDADD)

# Launch loops (launch repeats in the trace; no PTX file: the kernels are in the source).
check_PROGRAMS += tests/samples/launch_repeat_drv
tests_samples_launch_repeat_drv_SOURCES = tests/samples/launch_repeat_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_launch_repeat_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_launch_repeat_drv_LDADD = $(SAMPLES_DRV_LDADD)

# Capture ranges: launches around cuProfilerStart/cuProfilerStop (tests/integration/capture.sh).
check_PROGRAMS += tests/samples/profiler_range_drv
tests_samples_profiler_range_drv_SOURCES = tests/samples/profiler_range_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_profiler_range_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_profiler_range_drv_LDADD = $(SAMPLES_DRV_LDADD)

# NVTX ranges, marks, domains, registered strings and thread names over driver calls, with the toolkit's
# header-only NVTX 3 (tests/integration/nvtx.sh; tests/gpu/expect/nvtx_drv.sh).
check_PROGRAMS += tests/samples/nvtx_drv
tests_samples_nvtx_drv_SOURCES = tests/samples/nvtx_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_nvtx_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_nvtx_drv_LDADD = $(SAMPLES_DRV_LDADD) $(DL_LIBS) -lpthread

# Frames with and without a frame pointer, alternating (tests/integration/stacks-frames.sh, bench/run-hotpath -s).
check_PROGRAMS += tests/samples/deep_stack_drv
tests_samples_deep_stack_drv_SOURCES = tests/samples/deep_stack_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_deep_stack_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_deep_stack_drv_LDADD = $(SAMPLES_DRV_LDADD)
# Two devices in one process: contexts on both, peer copies (tests/gpu/expect/multi_gpu_peer.sh; on the
# simulated driver's two devices in make check, on a machine with two GPUs in the GPU suite).
check_PROGRAMS += tests/samples/multi_gpu_peer
tests_samples_multi_gpu_peer_SOURCES = tests/samples/multi_gpu_peer.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_multi_gpu_peer_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_multi_gpu_peer_LDADD = $(SAMPLES_DRV_LDADD)

# One planted problem per rule of cudatrace-report analyze, and each fixed (tests/integration/analyze-rules.sh);
# with debug information, so that the report names the lines.
check_PROGRAMS += tests/samples/analyze_drv
tests_samples_analyze_drv_SOURCES = tests/samples/analyze_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_samples_analyze_drv_CFLAGS = $(AM_CFLAGS) -g
tests_samples_analyze_drv_LDFLAGS = $(SAMPLES_DRV_LINK)
tests_samples_analyze_drv_LDADD = $(SAMPLES_DRV_LDADD)
