# rules for tests/samples (included by the top-level Makefile.am)
