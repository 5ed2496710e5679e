#!/bin/sh
# scripts/check-layers fails where the layering is broken: violations planted in a copy of the sources (an
# include up a layer, one sideways between exports, a model file naming a decoder) and in objects compiled
# for the purpose (the recorder naming a function of the preload layer's, by a call and by a weak reference as
# it once named GPU time's collector; an export calling another export's function; a call loop in the
# recorder).  Each must be reported, and the unplanted copy must pass.
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm is not installed"; exit 77; }
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
check="$CT_PYTHON3 $CT_TOP_SRCDIR/scripts/check-layers"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_problem WHAT SRC [BUILD] PATTERN: check-layers exits 1 and prints a line matching PATTERN
expect_problem() {
    what=$1 src=$2 build=$3 pattern=$4
    $check "$src" $build >"$tmp/out" 2>&1
    rc=$?
    [ "$rc" -eq 1 ] || fail "$what: exit $rc, expected 1 ($(cat "$tmp/out"))"
    grep -q -- "$pattern" "$tmp/out" || fail "$what: no line matching '$pattern' in: $(cat "$tmp/out")"
}

# The sources as they are: a copy, so that planting changes nothing of the tree.
mkdir -p "$tmp/src" && cp -R "$CT_TOP_SRCDIR/src" "$tmp/src/" || exit 99
$check "$tmp/src" >"$tmp/out" 2>&1 || fail "the unplanted sources: $(cat "$tmp/out")"

cp "$tmp/src/src/report/model/map.c" "$tmp/map.c"
printf '#include "report/cmd/cli.h"\n' >>"$tmp/src/src/report/model/map.c"
expect_problem "model including a command's header" "$tmp/src" "" \
    'src/report/model/map.c includes "report/cmd/cli.h": src/report/model may not use report/cmd'
cp "$tmp/map.c" "$tmp/src/src/report/model/map.c"

printf '/* a header of one export */\n' >"$tmp/src/src/report/export/chrome.h"
printf '#include "report/export/chrome.h"\n' >>"$tmp/src/src/report/export/records.c"
expect_problem "an export including another's header" "$tmp/src" "" \
    'records.c includes "report/export/chrome.h": one export may not use another'
rm "$tmp/src/src/report/export/chrome.h"
cp "$CT_TOP_SRCDIR/src/report/export/records.c" "$tmp/src/src/report/export/records.c"

printf '#include "format/decoder.h"\n' >>"$tmp/src/src/report/model/map.c"
expect_problem "the report including a decoder" "$tmp/src" "" 'map.c includes "format/decoder.h", which decodes records'
cp "$tmp/map.c" "$tmp/src/src/report/model/map.c"

printf '#include "preload/interpose.h"\n' >>"$tmp/src/src/gputime/gputime.c"
expect_problem "GPU time including the preload layer" "$tmp/src" "" \
    'src/gputime/gputime.c includes "preload/interpose.h": src/gputime may not use preload'
cp "$CT_TOP_SRCDIR/src/gputime/gputime.c" "$tmp/src/src/gputime/gputime.c"

# Objects: one or two small ones per part, in the places a libtool build puts them.
obj() { # obj PART NAME CODE
    mkdir -p "$tmp/build/src/$1/.libs"
    printf '%s\n' "$3" >"$tmp/$2.c"
    "${CC:-cc}" -c -o "$tmp/build/src/$1/.libs/lib_la-$2.o" "$tmp/$2.c" || exit 99
}
for part in format launcher report/cmd report/summary report/symbols report/model; do
    obj "$part" "x$(echo "$part" | tr / _)" "int ct_only_$(echo "$part" | tr / _)(void) { return 0; }"
done
obj preload attach 'void ct_attach(void) {}'
obj gputime gputime 'int ct_gpu_x(void) { return 1; }'
obj recorder lifecycle 'void ct_attach(void); void ct_rec_x(void) { ct_attach(); }'
obj recorder gpu 'void ct_gpu_collect(int) __attribute__((weak)); void ct_rec_y(void) { if (ct_gpu_collect) ct_gpu_collect(0); }'
obj preload gpu_collect 'void ct_gpu_collect(int f) { (void)f; }'
obj report/export chrome 'int rp_chrome(void) { return 1; }'
obj report/export perfetto 'int rp_chrome(void); int rp_perfetto(void) { return rp_chrome(); }'
expect_problem "the recorder calling the preload layer" "$tmp/src" "$tmp/build" \
    'src/recorder/lifecycle names ct_attach, defined in src/preload/attach: src/recorder may not use preload'
expect_problem "the recorder's weak reference to the preload layer" "$tmp/src" "$tmp/build" \
    'src/recorder/gpu names ct_gpu_collect, defined in src/preload/gpu_collect: src/recorder may not use preload'
expect_problem "an export calling another" "$tmp/src" "$tmp/build" \
    'src/report/export/perfetto calls rp_chrome of src/report/export/chrome: one export may not use another'

rm -rf "$tmp/build"
for part in format launcher preload gputime report/cmd report/summary report/symbols report/model report/export; do
    obj "$part" "x$(echo "$part" | tr / _)" "int ct_only_$(echo "$part" | tr / _)(void) { return 0; }"
done
obj recorder rings 'void ct_b(void); void ct_a(void) { ct_b(); }'
obj recorder drain 'void ct_a(void); void ct_b(void) { ct_a(); }'
expect_problem "a call loop in the recorder" "$tmp/src" "$tmp/build" 'src/recorder: a call loop: drain -> rings -> drain'

[ "$failures" -eq 0 ] || exit 1
exit 0
