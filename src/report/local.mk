# rules for src/report (see the top-level Makefile.am)
