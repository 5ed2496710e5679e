# src/format: reading and writing trace files (include/cudatrace/format.h), shared by the preloaded library's
# recorder, the dump tool, cudatrace-report and the tests.  A PIC convenience library: it ends up hidden
# inside libcudatrace.so, which is compiled with -fvisibility=hidden.
noinst_LTLIBRARIES += src/format/libctformat.la
src_format_libctformat_la_SOURCES = \
	src/format/record.c src/format/record.h \
	src/format/reader.c src/format/reader.h \
	src/format/enum_names.c src/format/enum_names.h \
	src/format/shapes.c src/format/shapes.h
src_format_libctformat_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
