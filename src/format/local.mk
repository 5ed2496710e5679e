# rules for src/format (see the top-level Makefile.am)
