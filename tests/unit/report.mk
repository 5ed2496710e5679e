# rules for tests/unit (included by the top-level Makefile.am)
