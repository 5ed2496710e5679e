#!/bin/sh
# The fuzz target on the committed seed corpus and on every input that once crashed it (regressions/): each
# command of the report runs on each file; any crash, abort or sanitizer report fails the test.
replay=$CT_TOP_BUILDDIR/tests/fuzz/fuzz-replay
[ -x "$replay" ] || { echo "fuzz-replay not built" >&2; exit 99; }
set -- "$CT_TOP_SRCDIR"/tests/fuzz/corpus/* "$CT_TOP_SRCDIR"/tests/fuzz/regressions/*
[ $# -ge 5 ] || { echo "FAIL: corpus missing ($# files)"; exit 1; }
for f; do
    [ -f "$f" ] || continue
    "$replay" "$f" 2>"${TMPDIR:-/tmp}/replay.$$.err"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        tail -n 30 "${TMPDIR:-/tmp}/replay.$$.err"
        rm -f "${TMPDIR:-/tmp}/replay.$$.err"
        echo "FAIL: $f: exit $rc"
        exit 1
    fi
done
rm -f "${TMPDIR:-/tmp}/replay.$$.err"
echo "replayed $# inputs"
