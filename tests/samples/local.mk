# rules for tests/samples (see the top-level Makefile.am)
