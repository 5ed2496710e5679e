# The recorder (src/preload/recorder.h): a PIC convenience library that libcudatrace.so takes in whole
# (LIBADD) and that the recorder's tests and benchmark link directly, each with its own ct_variants table.
# Hidden visibility: only the exec hooks (exec_hooks.c) are exported from libcudatrace.so.
noinst_LTLIBRARIES += src/preload/librecorder.la
src_preload_librecorder_la_SOURCES = \
	src/preload/recorder.c src/preload/recorder.h src/preload/recorder_hot.h src/preload/recorder_int.h src/preload/hot.h \
	src/preload/ring.c src/preload/ring.h \
	src/preload/clock.c src/preload/clock.h \
	src/preload/drain.c src/preload/writer.c \
	src/preload/tracefile.c src/preload/tracefile.h \
	src/preload/meta.c src/preload/meta.h \
	src/preload/intern.c src/preload/intern.h \
	src/preload/lifecycle.c src/preload/exec_hooks.c \
	src/preload/output.c src/preload/output.h \
	src/preload/settings.c src/preload/settings.h \
	src/preload/stacks.c src/preload/stacks.h \
	src/preload/modules.c src/preload/modules.h \
	src/preload/warn.c src/preload/warn.h
src_preload_librecorder_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(LIBUNWIND_CFLAGS)
# Call stacks (stacks.c) need libunwind; without it (--without-libunwind) they are simply never recorded.
src_preload_librecorder_la_LIBADD = src/format/libctformat.la $(LIBUNWIND_LIBS) $(DL_LIBS)
