#!/bin/sh
# The CUDA 13.0 runtime's driver entry-point requests, replayed against the simulated driver: every row of a
# function it implements must get the exact variant the real driver returns (see replay-entry-points.c).
set -u
replay="$CT_TOP_BUILDDIR/tests/integration/replay-entry-points"
requests="$CT_TOP_SRCDIR/tests/data/cudart-13.0-entry-point-requests.txt"
out=$(LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$replay" "$requests") || { echo "$out"; echo "FAIL: replay"; exit 1; }
echo "$out"
# A replay that checks nothing proves nothing: the samples' and the runtime's core functions must be covered.
checked=$(echo "$out" | sed -n 's/^replay: \([0-9]*\) rows checked.*/\1/p')
[ "${checked:-0}" -ge 130 ] || { echo "FAIL: only ${checked:-0} rows checked"; exit 1; }
