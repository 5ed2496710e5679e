#!/bin/sh
# cudatrace-report analyze of a job's ranks on the simulated driver: two ranks of analyze_drv's `rank` steps
# (1 ms of compute, then an all-reduce kernel named as NCCL's).  Rank 1 is slowed (2 ms of compute), so
# rank 0 waits for it: its all-reduce lasts 1.1 ms against rank 1's 0.1 ms (the simulated driver's
# SIM_KERNEL_NS).  The report must name rank 1 the slowest; with both ranks alike it reports no ranks
# finding, and still the table of ranks; without GPU time, none is the slowest.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SAMPLE=$CT_TOP_BUILDDIR/tests/samples/analyze_drv
[ -f "$CT_PRELOAD" ] || { echo "libcudatrace.so not built" >&2; exit 99; }

# rank NAME RANK VAR...: one rank's run into $TMP/NAME.ct
rank() {
    name=$1
    r=$2
    shift 2
    env RANK="$r" LOCAL_RANK=0 WORLD_SIZE=2 CUDATRACE_OUTPUT="$TMP/$name.ct" CUDATRACE_QUIET=1 \
        CUDATRACE_GPU_TIME=events "$@" LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" "$SAMPLE" rank >"$TMP/$name.out" 2>"$TMP/$name.err" ||
        fail "rank $name failed: $(cat "$TMP/$name.err")"
}

rank slow0 0 SIM_KERNEL_NS=1100000
rank slow1 1 SIM_KERNEL_NS=100000 ANALYZE_SLOW=1
run_report 0 analyze --format json "$TMP/slow0.ct" "$TMP/slow1.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["slowest_rank"] == 1, r["ranks"]
ranks = {k["rank"]: k for k in r["ranks"]}
assert sorted(ranks) == [0, 1], r["ranks"]
# 40 all-reduces: 44 ms of waiting on rank 0, 4 ms on rank 1 (each within what a loaded machine adds)
assert 40e6 < ranks[0]["collective_ns"] < 60e6 and 3e6 < ranks[1]["collective_ns"] < 15e6, r["ranks"]
assert ranks[1]["load_ns"] > ranks[0]["load_ns"], r["ranks"]
f = [f for f in r["findings"] if f["rule"] == "ranks"]
assert len(f) == 1 and f[0]["evidence"]["slowest_rank"] == 1 and f[0]["where"].startswith("rank 1 "), f
assert f[0]["lost_ns"] > 0, f
'
run_report 0 analyze --format table "$TMP/slow0.ct" "$TMP/slow1.ct"
grep -q "^[0-9]*\. ranks (rank 1 " "$TMP/out" || fail "table: no ranks finding for rank 1: $(cat "$TMP/out")"
grep -q "^  1 .*  slowest$" "$TMP/out" || fail "table: rank 1 not marked slowest"

rank even0 0 SIM_KERNEL_NS=100000
rank even1 1 SIM_KERNEL_NS=100000
run_report 0 analyze --format json "$TMP/even0.ct" "$TMP/even1.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["ranks"]) == 2, r["ranks"]
assert "ranks" not in [f["rule"] for f in r["findings"]], r["findings"]
'
run_report 0 analyze --format csv "$TMP/even0.ct" "$TMP/even1.ct"
grep -q "^# ranks" "$TMP/out" || fail "csv: no ranks table"

# Without GPU time no rank is the slowest: the table has both, zeros, and no finding names one.
rank off0 0 SIM_KERNEL_NS=1100000 CUDATRACE_GPU_TIME=off
rank off1 1 SIM_KERNEL_NS=100000 ANALYZE_SLOW=1 CUDATRACE_GPU_TIME=off
run_report 0 analyze --format json "$TMP/off0.ct" "$TMP/off1.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["slowest_rank"] is None and len(r["ranks"]) == 2, r["ranks"]
assert all(k["gpu_busy_ns"] == 0 for k in r["ranks"]), r["ranks"]
assert "ranks" not in [f["rule"] for f in r["findings"]] and r["gpu_timeline"], r
'
run_report 0 analyze --format table "$TMP/off0.ct" "$TMP/off1.ct"
grep -q "slowest$" "$TMP/out" && fail "table: a rank marked slowest without GPU time"
finish
