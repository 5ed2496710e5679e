#!/bin/sh
# The sample harness in `make check`: tests/gpu/run-gpu-tests --simulated runs the driver-API C samples
# (vectoradd_drv, ptxjit, ctx_drv) untraced and traced on the simulated driver and checks each trace against
# the sample's expectation file (tests/gpu/expect/), as the GPU runner does on a real GPU; the nvcc-built
# and Python samples skip.  Its output (one line per check, then `N passed, N failed, N skipped`) is in
# the test's log.
python=${CT_PYTHON3:-python3}
if ! "$python" -c 'import json' 2>/dev/null; then
    echo "SKIP: no python3 ($python) to read the traces' JSON"
    exit 77
fi
exec bash "$CT_TOP_SRCDIR/tests/gpu/run-gpu-tests" --simulated
