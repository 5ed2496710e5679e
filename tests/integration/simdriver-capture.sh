#!/bin/sh
# The simulated driver's stream capture and graphs (CUnit suite simdriver-capture.c).
LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" exec "$CT_TOP_BUILDDIR/tests/integration/simdriver-capture"
