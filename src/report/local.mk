# src/report: cudatrace-report (see the top-level Makefile.am).  The subcommands and their shared parts form
# a convenience library, so the unit tests link the same code the program runs.
noinst_LTLIBRARIES += src/report/libctreport.la
src_report_libctreport_la_SOURCES = \
	src/report/cli.c src/report/cli.h \
	src/report/trace.c src/report/trace.h \
	src/report/gpu_spans.c src/report/gpu_spans.h \
	src/report/nvtx_ranges.c src/report/nvtx_ranges.h \
	src/report/range_filter.c src/report/range_filter.h \
	src/report/nvtx_table.c src/report/nvtx_table.h \
	src/report/by_group.c src/report/by_group.h \
	src/report/stats.c src/report/stats.h \
	src/report/display_names.c src/report/display_names.h \
	src/report/text.c src/report/text.h \
	src/report/table.c src/report/table.h \
	src/report/map.c src/report/map.h \
	src/report/memory.c src/report/memory.h \
	src/report/args.c src/report/args.h \
	src/report/summary.c src/report/sort.h \
	src/report/summary_parts.c src/report/summary_parts.h \
	src/report/shape_set.c src/report/shape_set.h \
	src/report/gpu_tables.c src/report/gpu_tables.h \
	src/report/calls.c \
	src/report/export.c src/report/export.h \
	src/report/export_chrome.c \
	src/report/export_records.c \
	src/report/export_perfetto.c \
	src/report/pb.c src/report/pb.h \
	src/report/info.c \
	src/report/stacktab.c src/report/stacktab.h \
	src/report/symbolize.c src/report/symbolize.h src/report/symbols.h \
	src/report/sites.c src/report/sites.h \
	src/report/apimatch.c src/report/apimatch.h \
	src/report/memory_report.c \
	src/report/stacks_report.c
# The symbolization back end (symbols.h): elfutils libdw, else the ELF symbol tables read by hand.
if HAVE_LIBDW
src_report_libctreport_la_SOURCES += src/report/symbols_dw.c
else
src_report_libctreport_la_SOURCES += src/report/symbols_elf.c src/report/elfsym.c src/report/elfsym.h
endif
# SQLite (export --format sqlite) where configure found it.
if HAVE_SQLITE
src_report_libctreport_la_SOURCES += src/report/export_sqlite.c
endif
nodist_src_report_libctreport_la_SOURCES = src/report/results.c src/report/perfetto_fields.h
src_report_libctreport_la_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(SQLITE_CFLAGS)
src_report_libctreport_la_LIBADD = src/format/libctformat.la $(LIBDW_LIBS) $(SQLITE_LIBS) $(DL_LIBS) -lm

# CUresult names, generated from the toolkit's cuda.h (never a hand-kept copy).
src/report/results.c: $(srcdir)/src/report/gen-results.py $(CUDA_DIR)/include/cuda.h
	$(AM_V_GEN)$(MKDIR_P) src/report && $(PYTHON3) $(srcdir)/src/report/gen-results.py $(CUDA_DIR)/include/cuda.h $@
BUILT_SOURCES += src/report/results.c
CLEANFILES += src/report/results.c
EXTRA_DIST += src/report/gen-results.py

# The Perfetto field numbers the encoder uses, generated from the one place they are written down: the
# .proto subset (which the tests also decode the export with).
src/report/perfetto_fields.h: $(srcdir)/src/report/gen-perfetto-fields.py $(srcdir)/src/report/perfetto_trace.proto
	$(AM_V_GEN)$(MKDIR_P) src/report && $(PYTHON3) $(srcdir)/src/report/gen-perfetto-fields.py $(srcdir)/src/report/perfetto_trace.proto $@
BUILT_SOURCES += src/report/perfetto_fields.h
CLEANFILES += src/report/perfetto_fields.h
# Built first even outside `make all` (scripts/fuzz builds just its target).
$(src_report_libctreport_la_OBJECTS): src/report/perfetto_fields.h
EXTRA_DIST += src/report/gen-perfetto-fields.py src/report/perfetto_trace.proto

bin_PROGRAMS += src/report/cudatrace-report
src_report_cudatrace_report_SOURCES = src/report/main.c
src_report_cudatrace_report_LDADD = src/report/libctreport.la

dist_man_MANS = man/cudatrace-report.1
