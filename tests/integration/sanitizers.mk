# tests/integration (sanitizers): driver-API samples built with -fsanitize=address and -fsanitize=thread
# (where configure found them working: SAMPLE_ASAN, SAMPLE_TSAN), traced with the sanitizer's runtime first
# in LD_PRELOAD and libcudatrace.so second.
check_PROGRAMS += tests/integration/vectoradd_asan tests/integration/ctx_tsan
tests_integration_vectoradd_asan_SOURCES = tests/samples/vectoradd_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_integration_vectoradd_asan_CFLAGS = $(AM_CFLAGS) -g $(SAMPLE_ASAN)
tests_integration_vectoradd_asan_LDFLAGS = $(SAMPLES_DRV_LINK) $(SAMPLE_ASAN)
tests_integration_vectoradd_asan_LDADD = $(SAMPLES_DRV_LDADD)
tests_integration_ctx_tsan_SOURCES = tests/samples/ctx_drv.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_integration_ctx_tsan_CFLAGS = $(AM_CFLAGS) -g $(SAMPLE_TSAN)
tests_integration_ctx_tsan_LDFLAGS = $(SAMPLES_DRV_LINK) $(SAMPLE_TSAN)
tests_integration_ctx_tsan_LDADD = $(SAMPLES_DRV_LDADD)

TESTS += tests/integration/interpose-sanitizers.sh
EXTRA_DIST += tests/integration/interpose-sanitizers.sh
