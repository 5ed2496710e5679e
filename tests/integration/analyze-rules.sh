#!/bin/sh
# cudatrace-report analyze on the simulated driver: for each rule, analyze_drv with the problem planted must
# report it at the planted line (the site's function and line, symbolized with the sample's debug
# information), and the same program fixed must not; --error-exitcode, the table and csv forms, bad options.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SAMPLE=$CT_TOP_BUILDDIR/tests/samples/analyze_drv
SRC=$CT_TOP_SRCDIR/tests/samples/analyze_drv.c
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }
grep -q '^#define HAVE_LIBUNWIND 1' "$CT_TOP_BUILDDIR/config.h" || { echo "no call stacks in this build" >&2; exit 77; }
grep -q '^#define HAVE_LIBDW 1' "$CT_TOP_BUILDDIR/config.h" || { echo "report built without libdw" >&2; exit 77; }

line() { grep -n "/\* ANALYZE-$1 \*/" "$SRC" | cut -d: -f1; }

# trace RUN: analyze_drv RUN traced, every call's stack and GPU time, into $TMP/RUN.ct
trace() {
    env CUDATRACE_OUTPUT="$TMP/$1.ct" CUDATRACE_QUIET=1 CUDATRACE_STACKS=all CUDATRACE_GPU_TIME=events \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$SAMPLE" "$1" >"$TMP/$1.out" 2>"$TMP/$1.err" ||
        fail "analyze_drv $1 failed: $(cat "$TMP/$1.err")"
    expect_eq "$1: output" "analyze_drv: PASSED" "$(cat "$TMP/$1.out")"
}

# check RUN RULE FUNCTION LINE: RUN's analysis (JSON) has a finding of RULE whose first site has a frame of
# FUNCTION at LINE of analyze_drv.c; RUN-fixed's has none of RULE.  For gpu-idle the site is the launch that
# ended the longest gap.
check() {
    trace "$1"
    trace "$1-fixed"
    run_report 0 analyze --format json "$TMP/$1.ct"
    if ! RULE=$2 FN=$3 LINE=$4 "$PY" - "$TMP/out" >"$TMP/pyerr" 2>&1 <<'PYEOF'; then fail "$1: $(cat "$TMP/pyerr")"; fi
import json, os, sys
r = json.load(open(sys.argv[1]))
rule, fn, line = os.environ["RULE"], os.environ["FN"], int(os.environ["LINE"])
found = [f for f in r["findings"] if f["rule"] == rule]
assert len(found) >= 1, [f["rule"] for f in r["findings"]]
f = found[0]
assert f["lost_ns"] > 0 or rule == "leak", f
assert f["fix"] and f["title"] and f["evidence"], f
stack = f["gaps"][0]["launch"]["stack"] if rule == "gpu-idle" else f["sites"][0]["stack"]
frames = [(fr.get("function"), fr.get("line"), os.path.basename(fr.get("file", ""))) for fr in stack]
assert (fn, line, "analyze_drv.c") in frames, frames
lost = [g["lost_ns"] for g in r["findings"]]
assert lost == sorted(lost, reverse=True), lost
PYEOF
    run_report 0 analyze --format json "$TMP/$1-fixed.ct"
    py "
import json, sys
r = json.load(open(sys.argv[1]))
assert '$2' not in [f['rule'] for f in r['findings']], r['findings']
"
}

check sync sync step_sync "$(line SYNC)"
check pageable pageable step_copy "$(line PAGEABLE)"
check churn churn step_alloc "$(line CHURN)"
check small small-copies step_small "$(line SMALL)"
check idle gpu-idle step_idle "$(line IDLE)"
check launch launch-bound step_launch "$(line LAUNCHES)"
check leak leak keep_cache "$(line LEAK)"

# gpu-idle: the host's call during the longest gap is cuMemGetInfo at its line, and its evidence adds up.
run_report 0 analyze --format json "$TMP/idle.ct"
HOST=$(line HOST) py "
import json, os, sys
r = json.load(open(sys.argv[1]))
f = [f for f in r['findings'] if f['rule'] == 'gpu-idle'][0]
assert f['evidence']['gaps'] >= 20 and f['evidence']['idle_ns'] == f['lost_ns'], f['evidence']
during = [s for s in f['gaps'][0]['during'] if s['label'] == 'cuMemGetInfo']
assert during and during[0]['stack'][0]['function'] == 'host_work', f['gaps'][0]
assert during[0]['stack'][0]['line'] == int(os.environ['HOST']), during[0]['stack'][0]
"
# Shares: alone, a finding's lost time is a share of the run; beside another process, gpu-idle (one
# process's) is a share of its own process's run, and sync (a sum over the processes) of their runs added up.
run_report 0 analyze --format json "$TMP/sync.ct"
cp "$TMP/out" "$TMP/sync-alone.json"
run_report 0 analyze --format json "$TMP/idle.ct"
cp "$TMP/out" "$TMP/idle-alone.json"
run_report 0 analyze --format json "$TMP/idle.ct" "$TMP/sync.ct"
py "
import json, sys
both, idle, sync = (json.load(open(p)) for p in (sys.argv[1], '$TMP/idle-alone.json', '$TMP/sync-alone.json'))
assert all(f['lost_percent_of'] == 'run' for r in (idle, sync) for f in r['findings']), (idle, sync)
rule = lambda r, name: [f for f in r['findings'] if f['rule'] == name][0]
f, s = rule(both, 'gpu-idle'), rule(both, 'sync')
assert f['lost_percent_of'] == 'process' and s['lost_percent_of'] == 'processes', (f, s)
assert abs(f['lost_percent'] - 100 * f['lost_ns'] / idle['run_ns']) < 0.006, (f, idle['run_ns'])
assert abs(s['lost_percent'] - 100 * s['lost_ns'] / (idle['run_ns'] + sync['run_ns'])) < 0.006, (s, idle, sync)
"
run_report 0 analyze --format table "$TMP/idle.ct" "$TMP/sync.ct"
grep -q "^   lost: .* of the processes' runs added up)$" "$TMP/out" && grep -q "^   lost: .* of its process's run)$" "$TMP/out" ||
    fail "table: the shares' words: $(grep lost: "$TMP/out")"
# Two processes launch-bound: each one's finding lists its own launch sites, counted as when it is alone.
env CUDATRACE_OUTPUT="$TMP/launch2.ct" CUDATRACE_QUIET=1 CUDATRACE_STACKS=all CUDATRACE_GPU_TIME=events \
    LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
    LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$SAMPLE" launch >"$TMP/launch2.out" 2>"$TMP/launch2.err" ||
    fail "analyze_drv launch (a second) failed: $(cat "$TMP/launch2.err")"
for t in launch launch2; do
    run_report 0 analyze --format json "$TMP/$t.ct"
    cp "$TMP/out" "$TMP/$t-alone.json"
done
run_report 0 analyze --format json "$TMP/launch.ct" "$TMP/launch2.ct"
py "
import json, sys
both = json.load(open(sys.argv[1]))
alone = [json.load(open('$TMP/%s-alone.json' % t)) for t in ('launch', 'launch2')]
sites = lambda f: [(s['label'], s['count'], s['time_ns']) for s in f['sites']]
lb = lambda r: [f for f in r['findings'] if f['rule'] == 'launch-bound']
assert len(lb(both)) == 2 and all(len(lb(a)) == 1 for a in alone), (both, alone)
mine = sorted(sites(f) for f in lb(both))
assert mine == sorted(sites(lb(a)[0]) for a in alone), (mine, [sites(lb(a)[0]) for a in alone])
"
# A threshold moves the rule: from --idle-gap=10ms the sample's gaps of 2 ms are not counted (a loaded
# machine may make a few longer: those are, and only those); --min-repeats above the steps' 40 drops the
# sync site.
run_report 0 analyze --format json "$TMP/idle.ct"
cp "$TMP/out" "$TMP/idle-1ms.json"
run_report 0 analyze --format json --idle-gap=10ms "$TMP/idle.ct"
py "
import json, sys
gaps = lambda r: [f for f in r['findings'] if f['rule'] == 'gpu-idle']
wide, base = gaps(json.load(open(sys.argv[1]))), gaps(json.load(open('$TMP/idle-1ms.json')))
assert json.load(open(sys.argv[1]))['thresholds']['idle_gap_ns'] == 10000000
assert not wide or wide[0]['evidence']['gaps'] < base[0]['evidence']['gaps'] / 2, (wide, base)
assert all(g['duration_ns'] >= 10000000 for f in wide for g in f['gaps']), wide
"
run_report 0 analyze --format json --min-repeats=41 "$TMP/sync.ct"
py "
import json, sys
assert 'sync' not in [f['rule'] for f in json.load(open(sys.argv[1]))['findings']]
"

# --error-exitcode: N with a finding, 0 without (--idle-gap=1s: a loaded machine can pause the sample's
# host for more than a millisecond, and its GPU with it).
run_report 7 analyze --error-exitcode=7 --format json "$TMP/leak.ct"
run_report 0 analyze --error-exitcode=7 --idle-gap=1s --format json "$TMP/leak-fixed.ct"

# The table names the rule, the site and its line; csv has a row per finding.
run_report 0 analyze --format table "$TMP/sync.ct"
grep -q "^[1-9]\. sync: synchronizing calls" "$TMP/out" || fail "table: no sync finding: $(cat "$TMP/out")"
grep -q "#0 step_sync+0x[0-9a-f]* (analyze_drv.c:$(line SYNC)) \[analyze_drv\]" "$TMP/out" || fail "table: no sync site"
grep -q "^   fix: " "$TMP/out" || fail "table: no fix line"
run_report 0 analyze --format csv "$TMP/leak.ct"
head -1 "$TMP/out" | grep -q "^Rule,Where,Lost (ns),Lost %,Evidence,Site,Range,Stack,Fix" || fail "csv header: $(head -1 "$TMP/out")"
grep -q "^leak,.*keep_cache" "$TMP/out" || fail "csv: no leak row"
run_report 0 analyze --format tsv "$TMP/leak.ct"
grep -q "^leak	" "$TMP/out" || fail "tsv: no leak row"

# Bad options and files.
run_report 1 analyze --warmup=120 "$TMP/leak.ct"
run_report 1 analyze --idle-gap=soon "$TMP/leak.ct"
run_report 1 analyze --error-exitcode=300 "$TMP/leak.ct"
run_report 1 analyze --group-by=thread "$TMP/leak.ct"
# A kernel of no call (CUPTI's record of work the trace has no call of) is the GPU's busy time: it splits the
# idle stretch from 10 to 20 ms in two gaps, the shorter ended by no call; in a partial and back the same.
"$GEN" nocall "$TMP/nocall.ct" || { echo "report-gen failed" >&2; exit 99; }
run_report 0 analyze --format json "$TMP/nocall.ct"
py "
import json, sys
f = [f for f in json.load(open(sys.argv[1]))['findings'] if f['rule'] == 'gpu-idle']
assert len(f) == 1, f
e, g = f[0]['evidence'], f[0]['gaps']
assert e['gaps'] == 2 and e['busy_ns'] == 1003000 and e['idle_ns'] == 8999000, e
assert [(x['start_ns'], x['duration_ns'], x['launch']['api']) for x in g] == \
    [(14000000, 6000100, 'cuLaunchKernel'), (10001100, 2998900, '-')], g
assert g[1]['launch']['late_ns'] == 0 and g[1]['launch']['range'] is None and g[1]['launch']['stack'] == [], g[1]
"
cp "$TMP/out" "$TMP/nocall.json"
run_report 0 analyze --partial -o "$TMP/nocall.ctpart" "$TMP/nocall.ct"
run_report 0 analyze --format json "$TMP/nocall.ctpart"
cmp -s "$TMP/nocall.json" "$TMP/out" || fail "no call, through a partial: $(diff "$TMP/nocall.json" "$TMP/out" | head -4)"
run_report 0 analyze --format table "$TMP/nocall.ct"
grep -q '^   gap of 2,998,900 ns at 10,001,100 ns: the next work was launched by no call of the trace (made while not traced, or its record lost)$' \
    "$TMP/out" || fail "no call, as text: $(cat "$TMP/out")"
run_report 1 analyze
run_report 2 analyze "$TMP/nothing.ct"
run_report 0 analyze --help
grep -q -- "--idle-gap=TIME" "$TMP/out" || fail "--help names no --idle-gap"
finish
