# rules for src/preload (see the top-level Makefile.am)
