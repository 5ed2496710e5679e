# src/report: cudatrace-report (see the top-level Makefile.am), in six parts (doc/contributing.md, "Layout"):
#   cmd/      one file per command, and the command line they share (cli.c)
#   summary/  the summary's tables beyond its host tables: GPU, NVTX, per group, launch shapes
#   analyze/  the analyze command's rules: host calls, GPU timeline, ranks, memory
#   export/   one file per export format, and the protobuf writer of the Perfetto one
#   symbols/  resolving the frames of call stacks from the modules' files (libdw, or ELF symbol tables)
#   model/    what the commands and exports share: the trace read and merged, maps, statistics, text and
#             table output, call arguments, frames as text, memory, call sites, GPU spans, NVTX ranges
# scripts/check-layers checks which part may use which.  The parts form one convenience library, so the unit
# tests link the same code the program runs.
noinst_LTLIBRARIES += src/report/libctreport.la
src_report_libctreport_la_SOURCES = \
	src/report/model/trace.c src/report/model/trace.h \
	src/report/model/map.c src/report/model/map.h \
	src/report/model/stats.c src/report/model/stats.h \
	src/report/model/text.c src/report/model/text.h \
	src/report/model/table.c src/report/model/table.h \
	src/report/model/html.c src/report/model/html.h \
	src/report/model/html_chart.c src/report/model/html_chart.h \
	src/report/model/sort.h \
	src/report/model/parallel.c src/report/model/parallel.h \
	src/report/model/bytes.c src/report/model/bytes.h \
	src/report/model/partial_file.c src/report/model/partial_file.h \
	src/report/model/display_names.c src/report/model/display_names.h \
	src/report/model/args.c src/report/model/args.h \
	src/report/model/apimatch.c src/report/model/apimatch.h \
	src/report/model/gpu_spans.c src/report/model/gpu_spans.h \
	src/report/model/nvtx_ranges.c src/report/model/nvtx_ranges.h \
	src/report/model/range_filter.c src/report/model/range_filter.h \
	src/report/model/memory.c src/report/model/memory.h \
	src/report/model/stacktab.c src/report/model/stacktab.h \
	src/report/model/frames.c src/report/model/frames.h \
	src/report/model/sites.c src/report/model/sites.h \
	src/report/symbols/symbolize.c src/report/symbols/symbolize.h src/report/symbols/symbols.h \
	src/report/summary/parts.c src/report/summary/parts.h \
	src/report/summary/agg.c src/report/summary/agg.h src/report/summary/gpu_agg.h \
	src/report/summary/inputs.c src/report/summary/inputs.h \
	src/report/summary/partial.c src/report/summary/partial.h \
	src/report/summary/by_group.c src/report/summary/by_group.h \
	src/report/summary/shape_set.c src/report/summary/shape_set.h \
	src/report/summary/gpu_tables.c src/report/summary/gpu_tables.h \
	src/report/summary/nvtx_table.c src/report/summary/nvtx_table.h \
	src/report/export/export.h \
	src/report/export/chrome.c \
	src/report/export/records.c \
	src/report/export/perfetto.c \
	src/report/export/pb.c src/report/export/pb.h \
	src/report/export/html.c \
	src/report/export/html_timeline.c src/report/export/html_memory.c \
	src/report/cmd/cli.c src/report/cmd/cli.h \
	src/report/cmd/summary.c src/report/cmd/summary.h \
	src/report/cmd/calls.c \
	src/report/cmd/memory.c \
	src/report/cmd/stacks.c \
	src/report/cmd/export.c \
	src/report/cmd/info.c \
	src/report/cmd/analyze.c src/report/cmd/analyze.h \
	src/report/analyze/rules.c src/report/analyze/rules.h \
	src/report/analyze/host_rules.c \
	src/report/analyze/gpu_idle.c \
	src/report/analyze/part.c src/report/analyze/part.h \
	src/report/analyze/merge.c \
	src/report/analyze/partfile.c src/report/analyze/partfile.h
# The symbolization back end (symbols.h): elfutils libdw, else the ELF symbol tables read by hand.
if HAVE_LIBDW
src_report_libctreport_la_SOURCES += src/report/symbols/symbols_dw.c
else
src_report_libctreport_la_SOURCES += src/report/symbols/symbols_elf.c src/report/symbols/elfsym.c \
	src/report/symbols/elfsym.h
endif
# SQLite (export --format sqlite) where configure found it.
if HAVE_SQLITE
src_report_libctreport_la_SOURCES += src/report/export/sqlite.c
endif
nodist_src_report_libctreport_la_SOURCES = src/report/model/results.c src/report/export/perfetto_fields.h
src_report_libctreport_la_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(SQLITE_CFLAGS)
src_report_libctreport_la_LIBADD = src/format/libctformat.la $(LIBDW_LIBS) $(SQLITE_LIBS) $(DL_LIBS) -lm

# CUresult names, generated from the toolkit's cuda.h (never a hand-kept copy).
src/report/model/results.c: $(srcdir)/src/report/model/gen-results.py $(CUDA_DIR)/include/cuda.h
	$(AM_V_GEN)$(MKDIR_P) src/report/model && \
	$(PYTHON3) $(srcdir)/src/report/model/gen-results.py $(CUDA_DIR)/include/cuda.h $@
BUILT_SOURCES += src/report/model/results.c
CLEANFILES += src/report/model/results.c
EXTRA_DIST += src/report/model/gen-results.py

# The Perfetto field numbers the encoder uses, generated from the one place they are written down: the
# .proto subset (which the tests also decode the export with).
src/report/export/perfetto_fields.h: $(srcdir)/src/report/export/gen-perfetto-fields.py \
		$(srcdir)/src/report/export/perfetto_trace.proto
	$(AM_V_GEN)$(MKDIR_P) src/report/export && $(PYTHON3) $(srcdir)/src/report/export/gen-perfetto-fields.py \
		$(srcdir)/src/report/export/perfetto_trace.proto $@
BUILT_SOURCES += src/report/export/perfetto_fields.h
CLEANFILES += src/report/export/perfetto_fields.h
# Built first even outside `make all` (scripts/fuzz builds just its target).
$(src_report_libctreport_la_OBJECTS): src/report/export/perfetto_fields.h
EXTRA_DIST += src/report/export/gen-perfetto-fields.py src/report/export/perfetto_trace.proto

bin_PROGRAMS += src/report/cudatrace-report
src_report_cudatrace_report_SOURCES = src/report/cmd/main.c
src_report_cudatrace_report_LDADD = src/report/libctreport.la

dist_man_MANS = man/cudatrace-report.1
