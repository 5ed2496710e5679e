# src/launcher: the `cudatrace` program (cudatrace run ..., cudatrace report ...), installed beside
# cudatrace-report.  It validates its options with the recorder's own parsers: settings.c (with warn.c, what
# it reports through) and output.c (the -o template) are compiled into it too.
bin_PROGRAMS += src/launcher/cudatrace
src_launcher_cudatrace_SOURCES = src/launcher/cudatrace.c src/recorder/settings.c src/recorder/warn.c \
	src/recorder/output.c
src_launcher_cudatrace_CPPFLAGS = $(AM_CPPFLAGS) -DCT_LIBDIR='"$(libdir)"'
dist_man_MANS += man/cudatrace.1
