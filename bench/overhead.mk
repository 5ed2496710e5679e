# The tracing-overhead benchmark (an nvcc program and the script that alternates untraced and traced runs).
# bench/overhead is built by `make gpu-samples` (tests/samples/gpu.mk) with the samples' nvcc flags;
# `make bench-overhead` runs it on this machine's GPU.  It prints numbers, never pass/fail.
EXTRA_DIST += bench/overhead.cu bench/run-overhead bench/quantile.awk bench/overhead-split.patch tests/integration/split-patch.sh \
	bench/cupti_ab.cu bench/quantile.h bench/events_ab.cu bench/cupti_link.c
TESTS += tests/integration/split-patch.sh

# The training-loop benchmark (PyTorch on a GPU; bench/run-train-overhead runs it, scripts/gpu-bundle ships it),
# checked here without PyTorch.
EXTRA_DIST += bench/train_overhead.py bench/run-train-overhead tests/integration/train-overhead.sh
TESTS += tests/integration/train-overhead.sh
CLEANFILES += bench/overhead bench/cupti_ab bench/events_ab bench/cupti_link

bench/overhead: $(srcdir)/bench/overhead.cu $(srcdir)/bench/quantile.h
	$(nvcc_sample) -o $@ $(srcdir)/bench/overhead.cu

# Timing events recorded by the program itself, untraced: the floor under GPU time's cost.
bench/events_ab: $(srcdir)/bench/events_ab.cu $(srcdir)/bench/quantile.h
	$(nvcc_sample) -o $@ $(srcdir)/bench/events_ab.cu

# The minimal CUPTI callback tracer measured the same way, in one process, and with -a CUPTI's kernel
# activity (needs the toolkit's CUPTI; built by scripts/gpu-bundle where it can be, not by gpu-samples).
bench/cupti_ab: $(srcdir)/bench/cupti_ab.cu $(srcdir)/bench/quantile.h
	$(nvcc_sample) -o $@ $(srcdir)/bench/cupti_ab.cu -lcupti

# What linking CUPTI's records to their calls costs per launch (doc/gpu-time.md; built by scripts/gpu-bundle
# where the toolkit has CUPTI).
bench/cupti_link: $(srcdir)/bench/cupti_link.c $(srcdir)/bench/quantile.h
	$(AM_V_CC)$(MKDIR_P) $(@D) && $(CC) -std=c11 -O2 -Wall -Wextra -I$(CUDA_DIR)/include -o $@ \
		$(srcdir)/bench/cupti_link.c -L$(CUDA_STUBS_DIR) -lcuda -L$(CUDA_DIR)/lib64 -lcupti

# The CUPTI driver-call counter (an injection library) and the script that runs the runtime samples with it,
# untraced and traced, to list the tracer's own driver calls (built by scripts/gpu-bundle where the toolkit
# has CUPTI; no GPU needed to build).
EXTRA_DIST += bench/cupti_count.c bench/cupti_alone.c bench/run-own-calls tests/integration/own-calls-diff.sh
TESTS += tests/integration/own-calls-diff.sh
CLEANFILES += bench/libcupti_count.so bench/libcupti_alone.so
bench/libcupti_count.so: $(srcdir)/bench/cupti_count.c
	$(AM_V_CC)$(MKDIR_P) $(@D) && $(CC) -std=c11 -O2 -Wall -Wextra -shared -fPIC -I$(CUDA_DIR)/include \
		-o $@ $(srcdir)/bench/cupti_count.c -L$(CUDA_DIR)/lib64 -lcupti
# CUPTI's activity alone, priced as the tracer is by bench/run-train-overhead (an injection library too).
bench/libcupti_alone.so: $(srcdir)/bench/cupti_alone.c
	$(AM_V_CC)$(MKDIR_P) $(@D) && $(CC) -std=c11 -O2 -Wall -Wextra -shared -fPIC -pthread -I$(CUDA_DIR)/include \
		-o $@ $(srcdir)/bench/cupti_alone.c -L$(CUDA_DIR)/lib64 -lcupti

.PHONY: bench-overhead
bench-overhead: all bench/overhead
	CT_TOP_BUILDDIR='$(abs_top_builddir)' bash $(srcdir)/bench/run-overhead

# Instructions per traced call on the simulated driver (callgrind): the stable figure of the hot path.
check_PROGRAMS += bench/hotpath
bench_hotpath_SOURCES = bench/hotpath.c tests/samples/drv_sample.c tests/samples/drv_sample.h
bench_hotpath_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
bench_hotpath_LDFLAGS = -L$(CUDA_STUBS_DIR)
bench_hotpath_LDADD = -lcuda
EXTRA_DIST += bench/run-hotpath

# The tracer's cost per cuLaunchKernel, traced and direct launches alternating inside one process.
check_PROGRAMS += bench/launch_ab
bench_launch_ab_SOURCES = bench/launch_ab.c bench/quantile.h tests/samples/drv_sample.c tests/samples/drv_sample.h
bench_launch_ab_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
bench_launch_ab_LDFLAGS = -L$(CUDA_STUBS_DIR)
bench_launch_ab_LDADD = -lcuda

.PHONY: bench-hotpath
bench-hotpath: all bench/hotpath
	CT_TOP_BUILDDIR='$(abs_top_builddir)' bash $(srcdir)/bench/run-hotpath
