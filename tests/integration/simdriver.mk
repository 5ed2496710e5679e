# Tests of the simulated driver and of the driver-API samples on it (see tests/simdriver/README.md):
#   simdriver-samples.sh      vectoradd_drv and ptxjit run on it and check their own results
#   replay-entry-points.sh    the CUDA 13.0 runtime's cuGetProcAddress requests get the real driver's variants
#   simdriver-api.sh          CUnit suite of its behaviour (cuGetProcAddress errors, memory, contexts, ...)
#   simdriver-timeline.sh     CUnit suite of its device timeline: kernel and copy durations, pending events,
#                             synchronisation, strict handle mode
#   simdriver-capture.sh      CUnit suite of stream capture, graphs and capture modes
#   simdriver-exports.sh      it exports real driver names only, SONAME libcuda.so.1
# The programs dlopen or link libcuda.so.1 (the toolkit's stub at link time); the scripts point
# LD_LIBRARY_PATH at $CT_SIMDRIVER_DIR.
check_PROGRAMS += tests/integration/replay-entry-points
tests_integration_replay_entry_points_SOURCES = tests/integration/replay-entry-points.c
tests_integration_replay_entry_points_LDADD = $(DL_LIBS)

TESTS += \
	tests/integration/simdriver-samples.sh \
	tests/integration/replay-entry-points.sh \
	tests/integration/simdriver-exports.sh
EXTRA_DIST += \
	tests/integration/simdriver-samples.sh \
	tests/integration/replay-entry-points.sh \
	tests/integration/simdriver-exports.sh \
	tests/integration/simdriver-api.sh \
	tests/integration/simdriver-timeline.sh \
	tests/integration/simdriver-capture.sh \
	tests/integration/cunit-run.h \
	tests/data/cudart-13.0-entry-point-requests.txt

if HAVE_CUNIT
check_PROGRAMS += tests/integration/simdriver-api
tests_integration_simdriver_api_SOURCES = tests/integration/simdriver-api.c
tests_integration_simdriver_api_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_integration_simdriver_api_LDFLAGS = -L$(CUDA_STUBS_DIR)
tests_integration_simdriver_api_LDADD = -lcuda $(CUNIT_LIBS) $(DL_LIBS)
TESTS += tests/integration/simdriver-api.sh

check_PROGRAMS += tests/integration/simdriver-timeline tests/integration/simdriver-capture
tests_integration_simdriver_timeline_SOURCES = tests/integration/simdriver-timeline.c
tests_integration_simdriver_timeline_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_integration_simdriver_timeline_LDFLAGS = -L$(CUDA_STUBS_DIR)
tests_integration_simdriver_timeline_LDADD = -lcuda $(CUNIT_LIBS)
tests_integration_simdriver_capture_SOURCES = tests/integration/simdriver-capture.c
tests_integration_simdriver_capture_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_integration_simdriver_capture_LDFLAGS = -L$(CUDA_STUBS_DIR)
tests_integration_simdriver_capture_LDADD = -lcuda $(CUNIT_LIBS)
TESTS += tests/integration/simdriver-timeline.sh tests/integration/simdriver-capture.sh
endif
