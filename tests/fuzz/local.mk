# tests/fuzz: the report's fuzz target (fuzz_report.c).  `make check` replays the committed corpus through
# it: fuzz-replay, with replay.c for a main, compiles the report and the format itself with
# $(REPLAY_SANITIZE) (ASan and UBSan where configure found them), so that undefined behaviour, a bad access
# or a leak fails the test in every build.  scripts/fuzz builds the libFuzzer binary, fuzz-report, with clang
# in a build tree of its own.
check_PROGRAMS += tests/fuzz/fuzz-replay
tests_fuzz_fuzz_replay_SOURCES = tests/fuzz/fuzz_report.c tests/fuzz/replay.c \
	$(src_report_libctreport_la_SOURCES) $(src_format_libctformat_la_SOURCES)
nodist_tests_fuzz_fuzz_replay_SOURCES = $(nodist_src_report_libctreport_la_SOURCES)
tests_fuzz_fuzz_replay_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(SQLITE_CFLAGS) $(REPLAY_SANITIZE)
tests_fuzz_fuzz_replay_LDFLAGS = $(REPLAY_SANITIZE)
tests_fuzz_fuzz_replay_LDADD = $(LIBDW_LIBS) $(SQLITE_LIBS) $(DL_LIBS) -lm

# scripts/fuzz sets FUZZ_ENGINE to -fsanitize=fuzzer (a make variable: the command line overrides it).
FUZZ_ENGINE =
EXTRA_PROGRAMS += tests/fuzz/fuzz-report
tests_fuzz_fuzz_report_SOURCES = tests/fuzz/fuzz_report.c
tests_fuzz_fuzz_report_LDADD = src/report/libctreport.la
tests_fuzz_fuzz_report_LDFLAGS = $(FUZZ_ENGINE)
CLEANFILES += tests/fuzz/fuzz-report

TESTS += tests/fuzz/replay-corpus.sh
EXTRA_DIST += tests/fuzz/replay-corpus.sh tests/fuzz/make-seeds tests/fuzz/corpus tests/fuzz/regressions
