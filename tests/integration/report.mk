# rules for tests/integration (included by the top-level Makefile.am)
