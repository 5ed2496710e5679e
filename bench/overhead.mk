# The tracing-overhead benchmark (an nvcc program and the script that alternates untraced and traced runs).
# bench/overhead is built by `make gpu-samples` (tests/samples/gpu.mk) with the samples' nvcc flags;
# `make bench-overhead` runs it on this machine's GPU.  It prints numbers, never pass/fail.
EXTRA_DIST += bench/overhead.cu bench/run-overhead
CLEANFILES += bench/overhead

bench/overhead: $(srcdir)/bench/overhead.cu
	$(nvcc_sample) -o $@ $(srcdir)/bench/overhead.cu

.PHONY: bench-overhead
bench-overhead: all bench/overhead
	CT_TOP_BUILDDIR='$(abs_top_builddir)' bash $(srcdir)/bench/run-overhead
