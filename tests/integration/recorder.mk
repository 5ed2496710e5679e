# tests/integration (recorder): a small program recording through src/recorder/librecorder.la, run in the
# situations the recorder must survive, its traces checked with tests/integration/ctdump.
check_PROGRAMS += tests/integration/recorder-app tests/integration/recorder-order
EXTRA_DIST += tests/integration/recorder_variants.h
tests_integration_recorder_app_SOURCES = tests/integration/recorder-app.c tests/integration/recorder-variants.c
tests_integration_recorder_app_LDADD = src/recorder/librecorder.la $(DL_LIBS)
# The descriptor hooks (recorder-fds.sh) even under TSan, whose runtime, linked first, defines close.
tests_integration_recorder_app_LDFLAGS = -Wl,--undefined=ct_fd_hooks_linked
tests_integration_recorder_order_SOURCES = tests/integration/recorder-order.c tests/integration/recorder-variants.c
tests_integration_recorder_order_LDADD = src/recorder/librecorder.la $(DL_LIBS)

# recorder-sigterm.sh preloads it to stall the writer thread in the middle of a write
check_LTLIBRARIES += tests/integration/libstallwriter.la
tests_integration_libstallwriter_la_SOURCES = tests/integration/stall-writer.c
tests_integration_libstallwriter_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined

RECORDER_TESTS = \
	tests/integration/recorder-threads.sh tests/integration/recorder-fork.sh \
	tests/integration/recorder-exec.sh tests/integration/recorder-sigterm.sh \
	tests/integration/recorder-unwritable.sh tests/integration/recorder-fsize.sh \
	tests/integration/recorder-stderr.sh \
	tests/integration/recorder-overflow.sh tests/integration/recorder-nudge.sh tests/integration/recorder-exit.sh \
	tests/integration/recorder-fds.sh tests/integration/recorder-order.sh tests/integration/recorder-idle.sh \
	tests/integration/recorder-grow.sh
TESTS += $(RECORDER_TESTS)
EXTRA_DIST += $(RECORDER_TESTS) tests/integration/recorder-lib.sh

# ctdump: every record of a trace as one text line (the integration tests' view of a file).
check_PROGRAMS += tests/integration/ctdump
tests_integration_ctdump_SOURCES = tests/integration/ctdump.c
tests_integration_ctdump_LDADD = src/format/libctformat.la
