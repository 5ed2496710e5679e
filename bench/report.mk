# bench: cudatrace-report on a generated 10-million-call trace (seconds, peak RSS).  Run with
# `make bench-report` (REPORT_BENCH_N=... for another size); it prints numbers and never fails on time.
noinst_PROGRAMS += bench/report_bench
bench_report_bench_SOURCES = bench/report_bench.c
REPORT_BENCH_N = 10000000

.PHONY: bench-report
bench-report: bench/report_bench src/report/cudatrace-report tests/integration/report-gen
	bench/report_bench src/report/cudatrace-report tests/integration/report-gen $(REPORT_BENCH_N)

# The report on many ranks' files: -j 1 and -j 2, the Dask recipe (bench/run-ranks BUILD [FILES [CALLS ...]];
# doc/performance.md).  Prints figures only.
dist_noinst_SCRIPTS += bench/run-ranks
