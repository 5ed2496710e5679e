# tests/unit: CUnit suites of cudatrace-report's pieces (included by the top-level Makefile.am).
if HAVE_CUNIT
REPORT_UNIT_TESTS = tests/unit/test_report_stats tests/unit/test_report_names
check_PROGRAMS += $(REPORT_UNIT_TESTS)
TESTS += $(REPORT_UNIT_TESTS)

tests_unit_test_report_stats_SOURCES = tests/unit/test_report_stats.c
tests_unit_test_report_stats_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_report_stats_LDADD = src/report/libctreport.la $(CUNIT_LIBS)

tests_unit_test_report_names_SOURCES = tests/unit/test_report_names.c
tests_unit_test_report_names_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_report_names_LDADD = src/report/libctreport.la $(CUNIT_LIBS)
endif
