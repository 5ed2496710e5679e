#!/bin/sh
# bench/overhead-split.patch, the throwaway switches that doc/performance.md ("Where the time goes") splits the
# tracer's cost with, still applies to this tree: a change to the hot path must refresh it, not let it rot.
command -v patch >/dev/null 2>&1 || { echo "SKIP: patch(1) is not installed"; exit 77; }
out=$(patch --dry-run -p1 -d "$CT_TOP_SRCDIR" <"$CT_TOP_SRCDIR/bench/overhead-split.patch" 2>&1) || {
    echo "FAIL: bench/overhead-split.patch no longer applies:"
    echo "$out"
    exit 1
}
# Moved lines (an offset) are fine; changed context (fuzz) means the switches may land in the wrong place.
case $out in *fuzz*) echo "FAIL: bench/overhead-split.patch applies only with fuzz: $out"; exit 1 ;; esac
exit 0
