# rules for tests/gpu (included by the top-level Makefile.am)
