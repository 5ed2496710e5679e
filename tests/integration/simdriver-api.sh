#!/bin/sh
# The simulated driver's own behaviour (CUnit suite simdriver-api.c), on the simulated driver.
LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" exec "$CT_TOP_BUILDDIR/tests/integration/simdriver-api"
