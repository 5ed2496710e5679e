#!/bin/sh
# A library loaded where an unloaded one lay (issue 34, item 11): stacks-reload dlopens libreloada.so,
# allocates 1 MiB from its reload_alloc_a, dlcloses it, dlopens libreloadb.so (one layout: the loader maps it
# at A's range) and allocates 2 MiB from its reload_alloc_b; neither is freed.  B needs a module record of its
# own, and each stack must be read with the modules loaded when it was taken: the leaks name reload_alloc_a
# for the 1 MiB and reload_alloc_b for the 2 MiB.  Skips (77) when the loader put B elsewhere.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
PROG=$CT_TOP_BUILDDIR/tests/integration/stacks-reload
LIBS=$CT_TOP_BUILDDIR/tests/integration/.libs
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }
grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h" || { echo "SKIP: built without libunwind: no stacks"; exit 77; }

CUDATRACE_OUTPUT="$TMP/reload.ct" CUDATRACE_QUIET=1 LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
    LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$PROG" "$LIBS/libreloada.so" "$LIBS/libreloadb.so" >"$TMP/reload.out" 2>"$TMP/reload.err" ||
    { echo "FAIL: stacks-reload traced: $(cat "$TMP/reload.err")" >&2; exit 1; }
grep -q '^stacks-reload: PASSED$' "$TMP/reload.out" || { echo "FAIL: stacks-reload: $(cat "$TMP/reload.out")" >&2; exit 1; }
base_a=$(sed -n 's/^base A //p' "$TMP/reload.out")
base_b=$(sed -n 's/^base B //p' "$TMP/reload.out")
echo "libreloada.so at $base_a, libreloadb.so at $base_b"
if [ -z "$base_a" ] || [ "$base_a" != "$base_b" ]; then
    echo "SKIP: the loader did not map libreloadb.so at libreloada.so's unloaded range ($base_a, $base_b): nothing to test"
    exit 77
fi

# The trace: a module record for each library, at the same base, A's first.
"$CT_TOP_BUILDDIR/tests/integration/ctdump" "$TMP/reload.ct" >"$TMP/reload.dump" || fail "ctdump of reload.ct"
mods=$(grep '^module ' "$TMP/reload.dump" | grep -o 'libreload[ab]\.so' | tr '\n' ' ')
expect_eq "module records of the two libraries, in load order" "libreloada.so libreloadb.so " "$mods"

run_report 0 memory --format json "$TMP/reload.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
leaks = {}
for l in r["leaks"]:
    top = l["stack"][0]
    leaks[(top.get("function"), top.get("module", "").rsplit("/", 1)[-1])] = (l["bytes"], l["allocations"])
assert leaks == {("reload_alloc_a", "libreloada.so"): (1048576, 1),
                 ("reload_alloc_b", "libreloadb.so"): (2097152, 1)}, leaks
'
run_report 0 stacks --api 'cuMemAlloc*' --format json "$TMP/reload.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
sites = sorted(s["stack"][0]["function"] for s in r["by_count"])
assert sites == ["reload_alloc_a", "reload_alloc_b"], r["by_count"]
'
finish
