# rules for src/preload (included by the top-level Makefile.am)
