#!/bin/sh
# The simulated driver's device timeline (CUnit suite simdriver-timeline.c): copies at a byte per ns.
SIM_COPY_BYTES_PER_NS=1 LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" exec "$CT_TOP_BUILDDIR/tests/integration/simdriver-timeline"
