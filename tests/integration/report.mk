# tests/integration: cudatrace-report on synthetic traces written by report-gen (known calls, no preload,
# no driver).  Included by the top-level Makefile.am.
check_PROGRAMS += tests/integration/report-gen
tests_integration_report_gen_SOURCES = tests/integration/report-gen.c
tests_integration_report_gen_LDADD = src/format/libctformat.la
# report-input.sh preloads it to make pread fail
check_LTLIBRARIES += tests/integration/libfailpread.la
tests_integration_libfailpread_la_SOURCES = tests/integration/fail-pread.c
tests_integration_libfailpread_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined
# stacks-reload.sh: two libraries of one layout, the second dlopened where the first was unloaded.
check_LTLIBRARIES += tests/integration/libreloada.la tests/integration/libreloadb.la
tests_integration_libreloada_la_SOURCES = tests/integration/stacks-reload-lib.c
tests_integration_libreloada_la_CPPFLAGS = $(AM_CPPFLAGS) -DRELOAD_FN=reload_alloc_a
tests_integration_libreloada_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined -L$(CUDA_STUBS_DIR)
tests_integration_libreloada_la_LIBADD = -lcuda
tests_integration_libreloadb_la_SOURCES = tests/integration/stacks-reload-lib.c
tests_integration_libreloadb_la_CPPFLAGS = $(AM_CPPFLAGS) -DRELOAD_FN=reload_alloc_b
tests_integration_libreloadb_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined -L$(CUDA_STUBS_DIR)
tests_integration_libreloadb_la_LIBADD = -lcuda
check_PROGRAMS += tests/integration/stacks-reload
tests_integration_stacks_reload_SOURCES = tests/integration/stacks-reload.c
tests_integration_stacks_reload_LDFLAGS = -L$(CUDA_STUBS_DIR)
tests_integration_stacks_reload_LDADD = -lcuda -ldl

REPORT_TESTS = \
	tests/integration/report-summary.sh \
	tests/integration/report-gpu.sh \
	tests/integration/report-calls.sh \
	tests/integration/report-export.sh \
	tests/integration/report-sqlite.sh \
	tests/integration/report-perfetto.sh \
	tests/integration/report-info.sh \
	tests/integration/report-malformed.sh \
	tests/integration/report-input.sh \
	tests/integration/report-scale.sh \
	tests/integration/report-escapes.sh \
	tests/integration/report-folded.sh \
	tests/integration/report-html.sh \
	tests/integration/report-duplicates.sh \
	tests/integration/report-jobs.sh \
	tests/integration/report-partial.sh \
	tests/integration/report-dask.sh \
	tests/integration/stacks-memory.sh \
	tests/integration/py-pystack.sh \
	tests/integration/report-symbols.sh \
	tests/integration/stacks-frames.sh \
	tests/integration/stacks-reload.sh \
	tests/integration/analyze-rules.sh \
	tests/integration/analyze-ranks.sh \
	tests/integration/analyze-partial.sh \
	tests/integration/py-analyze.sh
TESTS += $(REPORT_TESTS)
EXTRA_DIST += $(REPORT_TESTS) tests/integration/report-lib.sh tests/integration/py-pystack.py tests/integration/py-pystack-edge.py tests/integration/pysim.py \
	tests/integration/report-html.py tests/integration/py-analyze.py
CLEANFILES += tests/integration/report-html.png
