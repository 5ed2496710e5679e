# tests/unit (format and recorder pieces): CUnit suites, plus the dump tool every trace test reads with.
check_PROGRAMS += tests/ctdump
tests_ctdump_SOURCES = tests/ctdump.c
tests_ctdump_LDADD = src/format/libctformat.la

if HAVE_CUNIT
FORMAT_UNIT_TESTS = tests/unit/test_format_layout tests/unit/test_format_rw \
	tests/unit/test_recorder_config tests/unit/test_ring
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
tests_unit_test_recorder_config_LDADD = src/preload/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)

tests_unit_test_ring_SOURCES = tests/unit/test_ring.c
tests_unit_test_ring_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_ring_LDADD = src/preload/librecorder.la $(DL_LIBS) $(CUNIT_LIBS)
endif
if !HAVE_CUNIT
TESTS += tests/unit/no-cunit.sh
endif
EXTRA_DIST += tests/unit/no-cunit.sh
