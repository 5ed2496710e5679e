# tests/unit (format and recorder pieces): CUnit suites.

if HAVE_CUNIT
FORMAT_UNIT_TESTS = tests/unit/test_format_layout tests/unit/test_format_rw \
	tests/unit/test_recorder_config tests/unit/test_ring tests/unit/test_launch_shape \
	tests/unit/test_stack_memo tests/unit/test_alloc
check_PROGRAMS += $(FORMAT_UNIT_TESTS)
TESTS += $(FORMAT_UNIT_TESTS)

tests_unit_test_format_layout_SOURCES = tests/unit/test_format_layout.c
tests_unit_test_format_layout_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_format_layout_LDADD = $(CUNIT_LIBS)

tests_unit_test_format_rw_SOURCES = tests/unit/test_format_rw.c
tests_unit_test_format_rw_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_format_rw_LDADD = src/format/libctformat.la $(CUNIT_LIBS)

tests_unit_test_recorder_config_SOURCES = tests/unit/test_recorder_config.c
tests_unit_test_recorder_config_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_recorder_config_LDADD = src/recorder/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)

tests_unit_test_ring_SOURCES = tests/unit/test_ring.c
tests_unit_test_ring_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_ring_LDADD = src/recorder/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)

tests_unit_test_launch_shape_SOURCES = tests/unit/test_launch_shape.c tests/unit/recorder_test.h \
	tests/integration/recorder-variants.c
tests_unit_test_launch_shape_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_launch_shape_LDADD = src/recorder/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)

tests_unit_test_stack_memo_SOURCES = tests/unit/test_stack_memo.c tests/unit/recorder_test.h \
	tests/integration/recorder-variants.c
tests_unit_test_stack_memo_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBUNWIND_CFLAGS)
tests_unit_test_stack_memo_LDADD = src/recorder/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)

tests_unit_test_alloc_SOURCES = tests/unit/test_alloc.c
tests_unit_test_alloc_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_alloc_LDADD = src/recorder/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)
endif
if !HAVE_CUNIT
TESTS += tests/unit/no-cunit.sh
endif
EXTRA_DIST += tests/unit/no-cunit.sh

# The layering of src/ and the loops it must not have (scripts/check-layers, over the built objects).
TESTS += tests/unit/layers.sh tests/unit/layers-planted.sh
EXTRA_DIST += tests/unit/layers.sh tests/unit/layers-planted.sh scripts/check-layers
