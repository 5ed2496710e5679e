# tests/integration (recorder): a small program recording through src/preload/librecorder.la, run in the
# situations the recorder must survive, its traces checked with tests/ctdump.
check_PROGRAMS += tests/integration/recorder-app tests/integration/recorder-order
tests_integration_recorder_app_SOURCES = tests/integration/recorder-app.c tests/recorder-variants.c
tests_integration_recorder_app_LDADD = src/preload/librecorder.la $(DL_LIBS)
tests_integration_recorder_order_SOURCES = tests/integration/recorder-order.c tests/recorder-variants.c
tests_integration_recorder_order_LDADD = src/preload/librecorder.la $(DL_LIBS)

RECORDER_TESTS = \
	tests/integration/recorder-threads.sh tests/integration/recorder-fork.sh \
	tests/integration/recorder-exec.sh tests/integration/recorder-sigterm.sh \
	tests/integration/recorder-unwritable.sh tests/integration/recorder-fsize.sh \
	tests/integration/recorder-overflow.sh tests/integration/recorder-nudge.sh tests/integration/recorder-exit.sh \
	tests/integration/recorder-fds.sh tests/integration/recorder-order.sh tests/integration/recorder-idle.sh \
	tests/integration/recorder-grow.sh
TESTS += $(RECORDER_TESTS)
EXTRA_DIST += $(RECORDER_TESTS) tests/integration/recorder-lib.sh
