# src/format: the only code that knows trace records (include/cudatrace/format.h): building and checking
# them (record.c, shared with the recorder that writes them), and turning them into calls: the decoder
# (decoder.c, with shapes.c), the sequential reader (reader.c) and the time-ordered merge of several files
# (runs.c, merge.c), both reading files opened once (input.c).  Shared by the preloaded library's recorder, cudatrace-report and the tests.  A PIC
# convenience library: it ends up hidden inside libcudatrace.so, which is compiled with -fvisibility=hidden.
noinst_LTLIBRARIES += src/format/libctformat.la
src_format_libctformat_la_SOURCES = \
	src/format/record.c src/format/record.h \
	src/format/call.h src/format/gpu.h src/format/decoder.c src/format/decoder.h \
	src/format/shapes.c src/format/shapes.h \
	src/format/input.c src/format/input.h \
	src/format/reader.c src/format/reader.h \
	src/format/runs.c src/format/runs.h src/format/grow.h \
	src/format/merge.c src/format/merge.h \
	src/format/enum_names.c src/format/enum_names.h \
	src/format/annot.c src/format/annot.h
src_format_libctformat_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
