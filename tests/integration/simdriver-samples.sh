#!/bin/sh
# The driver-API samples run on the simulated driver, check their own results and say PASSED; a sample that
# cannot find its PTX fails (so a sample that always passes would be noticed).
set -u
samples="$CT_TOP_BUILDDIR/tests/samples"
ptx="$CT_TOP_SRCDIR/tests/samples"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

run() { # name, expected last line
    if LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$samples/$1" "$ptx" >"$tmp/$1.out" 2>"$tmp/$1.err" &&
        [ "$(tail -n 1 "$tmp/$1.out")" = "$2" ] && [ ! -s "$tmp/$1.err" ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1"; cat "$tmp/$1.out" "$tmp/$1.err"; status=1
    fi
}
run vectoradd_drv "vectoradd_drv: PASSED"
run ptxjit "ptxjit: PASSED"

grep -qx "vectorAddScaled with extra and a float4 argument: PASSED" "$tmp/vectoradd_drv.out" ||
    { echo "FAIL: vectoradd_drv did not check the extra launch"; status=1; }

if LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$samples/vectoradd_drv" "$tmp/nowhere" >/dev/null 2>&1; then
    echo "FAIL: vectoradd_drv passed without its PTX"; status=1
else
    echo "ok: vectoradd_drv fails without its PTX"
fi
exit $status
