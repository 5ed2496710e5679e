# tests/unit (generator): scripts/gen-wrappers.py on a small header, and the names it derives from the
# toolkit's headers checked against the real driver's answers (tests/data), cuda.h and the libcuda stub.
TESTS += tests/unit/test_generator.sh tests/unit/test_entry_point_names.sh
EXTRA_DIST += tests/unit/test_generator.sh tests/unit/test_entry_point_names.sh \
	tests/unit/test_generator.h tests/unit/test_generator_decls.h tests/unit/test_generator.expected \
	tests/data/cudart-13.0-entry-point-requests.txt
