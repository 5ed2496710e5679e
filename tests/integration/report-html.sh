#!/bin/sh
# The HTML report (export --format html) in a real browser: headless Chromium, with no network, renders the
# page of a simulated-driver job (ranks 0 and 1 of nvtx_drv with GPU time, rank 2 leak_drv's allocations
# and call stacks); the rendered page (--dump-dom) must show every summary table with the summary's own
# numbers (summary --format json of the same files), the bar charts, timeline, memory and rank charts that
# agree with them, and no JavaScript error; sorting by a column works (the #sort= address); names with markup
# and script in them (report-gen markup) show as text and run nothing; a page whose script fails says so
# (the check of the check).  A screenshot of the page is kept as tests/integration/report-html.png in the
# build tree and must be a non-blank PNG.  Without the browser first: the file is self-contained, and the
# timeline of 40 streams (report-gen streams) has 32 rows and one of the rest.  Without Chromium (Debian:
# chromium) the browser's part is skipped (77).
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
CHECK=$CT_TOP_SRCDIR/tests/integration/report-html.py
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }

# trace NAME SAMPLE [VAR=VALUE...]: a sample traced on the simulated driver into $TMP/NAME.ct
trace() {
    name=$1 sample=$2
    shift 2
    env "$@" CUDATRACE_GPU_TIME=all CUDATRACE_OUTPUT="$TMP/$name.ct" CUDATRACE_QUIET=1 LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        "$CT_TOP_BUILDDIR/tests/samples/$sample" >/dev/null 2>"$TMP/$name.err" || fail "$sample: $(cat "$TMP/$name.err")"
}
trace r0 nvtx_drv RANK=0 WORLD_SIZE=3 SIM_KERNEL_NS=20000
trace r1 nvtx_drv RANK=1 WORLD_SIZE=3 SIM_KERNEL_NS=35000
trace r2 leak_drv RANK=2 WORLD_SIZE=3 SIM_KERNEL_NS=20000 SIM_COPY_BYTES_PER_NS=2
files="$TMP/r0.ct $TMP/r1.ct $TMP/r2.ct"
"$GEN" markup "$TMP/markup.ct" || fail "report-gen markup"

run_report 0 export --format html -o "$TMP/report.html" $files
run_report 0 summary --format json --top 100 $files
cp "$TMP/out" "$TMP/summary.json"
run_report 0 summary --format json --by rank $files
cp "$TMP/out" "$TMP/byrank.json"
run_report 0 analyze --format json $files
cp "$TMP/out" "$TMP/analyze.json"
run_report 0 export --format html -o "$TMP/markup.html" "$TMP/markup.ct"
run_report 1 export --format html --timeunit ms $files
run_report 4 export --format html -o /nonexistent/dir/report.html $files
"$PY" "$CHECK" static "$TMP/report.html" || fail "the report file is not self-contained"
"$PY" "$CHECK" static "$TMP/markup.html" || fail "the markup report is not self-contained"
grep -q 'document.body.dataset.pwned=1</script>' "$TMP/markup.html" && fail "markup: a name's script tag was written as is"
# 40 streams: 32 rows of their own, the other 8 streams' spans in one more
"$GEN" streams 40 "$TMP/streams.ct" || fail "report-gen streams"
run_report 0 export --format html -o "$TMP/streams.html" "$TMP/streams.ct"
"$PY" "$CHECK" streams "$TMP/streams.html" 40 || fail "the timeline of 40 streams"
[ "$failures" -eq 0 ] || finish

CHROMIUM=${CT_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
    echo "SKIP: no chromium (Debian: apt-get install chromium) for the browser checks"
    exit 77
fi
# browse URL ARGS...: headless Chromium, a profile of its own, every host name unresolvable (no network)
browse() {
    url=$1
    shift
    HOME=$TMP timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
        --disable-extensions \
        --user-data-dir="$TMP/profile" --host-resolver-rules='MAP * ~NOTFOUND' "$@" "$url" 2>>"$TMP/chromium.err"
}
dom() { # dom URL OUT: the page as rendered, once its script ran
    browse "$1" --dump-dom >"$2" || fail "chromium --dump-dom $1: exit $? ($(tail -n 3 "$TMP/chromium.err"))"
}

dom "file://$TMP/report.html" "$TMP/report.dom"
"$PY" "$CHECK" page "$TMP/report.dom" "$TMP/summary.json" "$TMP/byrank.json" "$TMP/analyze.json" ||
    fail "the rendered page"
dom "file://$TMP/report.html#sort=api:Num%20Calls" "$TMP/sort1.dom"
"$PY" "$CHECK" sorted "$TMP/sort1.dom" api "Num Calls" desc || fail "api sorted by Num Calls"
dom "file://$TMP/report.html#sort=api:Name" "$TMP/sort2.dom"
"$PY" "$CHECK" sorted "$TMP/sort2.dom" api Name asc || fail "api sorted by Name"
dom "file://$TMP/report.html#sort=api:Name&sort=api:Name" "$TMP/sort3.dom" # a second click turns it round
"$PY" "$CHECK" sorted "$TMP/sort3.dom" api Name desc || fail "api sorted by Name, twice"
dom "file://$TMP/markup.html" "$TMP/markup.dom"
"$PY" "$CHECK" hostile "$TMP/markup.dom" || fail "names with markup in the rendered page"

# The check of the check: a page whose script throws, and one whose script does not parse, are caught.
sed 's|^</body></html>$|<script>null.no_such_member;</script></body></html>|' "$TMP/report.html" >"$TMP/throws.html"
dom "file://$TMP/throws.html" "$TMP/throws.dom"
"$PY" "$CHECK" errors "$TMP/throws.dom" || fail "an error thrown by a script was not caught"
sed "s|^(function(){'use strict';\$|(function(){'use strict';(|" "$TMP/report.html" >"$TMP/syntax.html"
cmp -s "$TMP/report.html" "$TMP/syntax.html" && fail "the syntax error was not planted"
dom "file://$TMP/syntax.html" "$TMP/syntax.dom"
"$PY" "$CHECK" errors "$TMP/syntax.dom" || fail "a script that does not parse was not caught"
grep -q '<body data-ok="0"' "$TMP/syntax.dom" || fail "a script that does not parse set data-ok"

shot=$CT_TOP_BUILDDIR/tests/integration/report-html.png
rm -f "$shot"
browse "file://$TMP/report.html" --hide-scrollbars --window-size=1280,2400 --screenshot="$shot" >/dev/null ||
    fail "chromium --screenshot: $(tail -n 3 "$TMP/chromium.err")"
"$PY" "$CHECK" png "$shot" 1280 2400 || fail "the screenshot"
finish
