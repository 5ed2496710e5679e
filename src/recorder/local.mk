# src/recorder: per-thread rings, the writer, the trace file and the process's life around them
# (recorder.h is the API the interposition layer uses); it knows nothing of CUDA's routes.  A PIC
# convenience library that libcudatrace.so takes in whole (LIBADD) and that the recorder's tests and
# benchmark link directly, each with its own ct_variants table (variants.h).
# Hidden visibility: only the exec and descriptor hooks (exec_hooks.c, fd_hooks.c) are exported from
# libcudatrace.so.
noinst_LTLIBRARIES += src/recorder/librecorder.la
src_recorder_librecorder_la_SOURCES = \
	src/recorder/recorder.h src/recorder/variants.h src/recorder/hot.h src/recorder/export.h \
	src/recorder/record.c src/recorder/recorder_hot.h \
	src/recorder/annotate.c \
	src/recorder/apis.c src/recorder/apis.h \
	src/recorder/rank.c src/recorder/rank.h \
	src/recorder/state.c src/recorder/state.h \
	src/recorder/rings.c src/recorder/rings.h src/recorder/tsan.h \
	src/recorder/ring.c src/recorder/ring.h \
	src/recorder/clock.c src/recorder/clock.h \
	src/recorder/drain.c src/recorder/drain.h \
	src/recorder/gpu.c src/recorder/gpu.h \
	src/recorder/writer.c src/recorder/writer.h \
	src/recorder/forklock.c src/recorder/forklock.h src/recorder/alloc.c src/recorder/alloc.h \
	src/recorder/lifecycle.c src/recorder/exec_hooks.c src/recorder/fd_hooks.c \
	src/recorder/fdhigh.c src/recorder/fdhigh.h \
	src/recorder/tracefile.c src/recorder/tracefile.h \
	src/recorder/meta_queue.c src/recorder/meta_queue.h \
	src/recorder/intern.c src/recorder/intern.h \
	src/recorder/output.c src/recorder/output.h \
	src/recorder/settings.c src/recorder/settings.h \
	src/recorder/stacks.c src/recorder/stacks.h \
	src/recorder/stack_memo.c src/recorder/stack_memo.h \
	src/recorder/pystack.c src/recorder/pystack.h \
	src/recorder/modules.c src/recorder/modules.h \
	src/recorder/warn.c src/recorder/warn.h
src_recorder_librecorder_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(LIBUNWIND_CFLAGS)
# Call stacks (stacks.c) need libunwind; without it (--without-libunwind) they are simply never recorded.
src_recorder_librecorder_la_LIBADD = src/format/libctformat.la $(LIBUNWIND_LIBS) $(DL_LIBS)
