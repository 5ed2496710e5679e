# src/gputime: GPU time (gputime.h), between the interposition layer and the recorder: the sources that time
# kernels, copies and sets (backend.h: CUPTI's activity records in activity.c, with libcupti found by cupti.c;
# timing events in events*.c), sampling (sample.h) and the choice of source (gputime.c).  It calls the recorder (recorder/gpu.h) and the driver through the functions the
# interposition layer lends it; the recorder reaches it only through the collector that layer registers.
# A PIC convenience library that libcudatrace.so takes in whole (LIBADD).
noinst_LTLIBRARIES += src/gputime/libgputime.la
src_gputime_libgputime_la_SOURCES = \
	src/gputime/gputime.c src/gputime/gputime.h src/gputime/backend.h src/gputime/host.c \
	src/gputime/sample.c src/gputime/sample.h \
	src/gputime/events.c src/gputime/events.h src/gputime/events_pool.c src/gputime/events_collect.c \
	src/gputime/events_contexts.c
# GPU time from CUPTI's activity records, where configure found CUPTI's headers (libcupti itself is loaded at
# run time, never linked).
if HAVE_CUPTI
src_gputime_libgputime_la_SOURCES += src/gputime/activity.c src/gputime/activity.h \
	src/gputime/cupti.c src/gputime/cupti.h
endif
src_gputime_libgputime_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUPTI_CPPFLAGS)
src_gputime_libgputime_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

