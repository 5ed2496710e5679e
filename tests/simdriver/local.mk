# rules for tests/simdriver (see the top-level Makefile.am)
