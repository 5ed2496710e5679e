# bench (recorder): cost per record and sustained rates; prints figures, no pass/fail.  Run
# bench/recorder_bench after `make`.
noinst_PROGRAMS += bench/recorder_bench
bench_recorder_bench_SOURCES = bench/recorder_bench.c bench/quantile.h tests/integration/recorder-variants.c
bench_recorder_bench_CFLAGS = $(AM_CFLAGS) -O2
bench_recorder_bench_LDADD = src/recorder/librecorder.la $(DL_LIBS)

# NVTX push+pop cost under the tracer (bench/run-nvtx; make bench-nvtx).
noinst_PROGRAMS += bench/nvtx_bench
bench_nvtx_bench_SOURCES = bench/nvtx_bench.c bench/quantile.h
bench_nvtx_bench_CFLAGS = $(AM_CFLAGS) -O2
bench_nvtx_bench_LDFLAGS = -L$(CUDA_STUBS_DIR)
bench_nvtx_bench_LDADD = -lcuda $(DL_LIBS)
dist_noinst_SCRIPTS += bench/run-nvtx
.PHONY: bench-nvtx
bench-nvtx: bench/nvtx_bench src/preload/libcudatrace.la
	CT_TOP_BUILDDIR=$(abs_top_builddir) $(srcdir)/bench/run-nvtx

# What Python frames add to a stack capture (bench/run-pystack; make bench-pystack).
dist_noinst_SCRIPTS += bench/run-pystack
EXTRA_DIST += bench/pystack_bench.py
.PHONY: bench-pystack
bench-pystack: src/preload/libcudatrace.la
	CT_TOP_BUILDDIR=$(abs_top_builddir) PYTHON3=$(PYTHON3) $(srcdir)/bench/run-pystack
