# bench (recorder): cost per record and sustained rates; prints figures, no pass/fail.  Run
# bench/recorder_bench after `make`.
noinst_PROGRAMS += bench/recorder_bench
bench_recorder_bench_SOURCES = bench/recorder_bench.c bench/quantile.h tests/integration/recorder-variants.c
bench_recorder_bench_CFLAGS = $(AM_CFLAGS) -O2
bench_recorder_bench_LDADD = src/recorder/librecorder.la $(DL_LIBS)
