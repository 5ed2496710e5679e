#!/bin/sh
# NVTX and thread names (tests/samples/nvtx_drv says what it does): the library makes itself NVTX's injection
# library when preloaded (no launcher), records push/pop, start/end, marks, domains, registered strings,
# categories and nvtxNameOsThread; the report pairs them into ranges (summary's nvtx table, as nsys
# nvtx_sum), lists and summarizes the calls inside a range (--range), and shows them in the Chrome export;
# thread names (the OS name at the first record, nvtxNameOsThread, pthread_setname_np) in info, calls and
# the export; CUDATRACE_CAPTURE=nvtx:RANGE records only inside that range.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$CT_TOP_BUILDDIR/tests/samples/nvtx_drv
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report

run_pair all "$prog"
grep -q '^nvtx_drv: 12 launches$' "$tmp/all.traced" || fail "nvtx_drv did not run"
expect_count all 12 '^nvtx push '
expect_count all 12 '^nvtx pop '
expect_count all 1 '^nvtx mark .* name=checkpoint '
expect_count all 1 '^nvtx start .* name=io range_id=[1-9]'
expect_count all 1 '^nvtx end '
expect_count all 3 '^nvtx push .* name=forward .* category=1 color=0xff00a000$'
expect_count all 1 '^nvtx-domain id=1 name=mylib$'
expect_count all 1 '^nvtx-category domain=0 id=1 name=compute$'
expect_count all 1 '^nvtx push .* domain=1 name=load '
# Thread names: the worker named itself through NVTX before its first record (its OS name, inherited from
# the main thread, must not win); the main thread renamed itself after its first record.
main=$(sed -n 's/^nvtx push tid=\([0-9]*\) .* name=setup .*/\1/p' "$tmp/all.dump")
worker=$(sed -n 's/^nvtx push tid=\([0-9]*\) .* name=load .*/\1/p' "$tmp/all.dump")
[ -n "$main" ] && [ -n "$worker" ] && [ "$main" != "$worker" ] || fail "threads: main '$main' worker '$worker'"
[ "$(grep "^thread tid=$worker " "$tmp/all.dump" | tail -n 1)" = "thread tid=$worker name=nvtx-worker" ] ||
    fail "worker's name: $(grep "^thread tid=$worker " "$tmp/all.dump")"
[ "$(grep "^thread tid=$main " "$tmp/all.dump" | tail -n 1)" = "thread tid=$main name=main-renamed" ] ||
    fail "main thread's name: $(grep "^thread tid=$main " "$tmp/all.dump")"

# summary's nvtx table: one row per (style, range), nsys's columns.
"$report" summary -f csv -s nvtx "$tmp/all.ctrace" >"$tmp/nvtx.csv" || fail "summary nvtx exit $?"
[ "$(head -n 1 "$tmp/nvtx.csv")" = 'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range' ] ||
    fail "nvtx header: $(head -n 1 "$tmp/nvtx.csv")"
for row in 'PushPop,:step' 'PushPop,:forward' 'PushPop,:backward'; do
    grep -q "^[0-9.]*,[0-9]*,3,.*,$row\$" "$tmp/nvtx.csv" || fail "nvtx row $row: $(cat "$tmp/nvtx.csv")"
done
for row in 'PushPop,:setup' 'PushPop,mylib:load' 'StartEnd,:io' 'PushPop,:wide-ü'; do
    grep -q "^[0-9.]*,[0-9]*,1,.*,$row\$" "$tmp/nvtx.csv" || fail "nvtx row $row: $(cat "$tmp/nvtx.csv")"
done
[ "$(wc -l <"$tmp/nvtx.csv")" = 8 ] || fail "nvtx rows: $(cat "$tmp/nvtx.csv")"
"$report" summary -f csv --report nvtx_sum "$tmp/all.ctrace" | cmp -s - "$tmp/nvtx.csv" || fail "--report nvtx_sum"

# calls --range: the calls of that thread inside the range.
"$report" calls -f csv --range forward "$tmp/all.ctrace" >"$tmp/fwd.csv" || fail "calls --range exit $?"
[ "$(tail -n +2 "$tmp/fwd.csv" | grep -c ',cuLaunchKernel,0,')" = 6 ] || fail "calls --range forward: $(cat "$tmp/fwd.csv")"
[ "$(tail -n +2 "$tmp/fwd.csv" | wc -l)" = 6 ] || fail "calls --range forward: other calls"
grep -q 'kernel=kernelB' "$tmp/fwd.csv" && fail "calls --range forward lists backward's kernel"
"$report" calls -f csv --range 'load@mylib' "$tmp/all.ctrace" >"$tmp/load.csv" || fail "calls --range load@mylib"
[ "$(tail -n +2 "$tmp/load.csv" | cut -d, -f3,8 | sort | uniq -c | tr -s ' ')" = ' 1 cuCtxSynchronize,nvtx-worker
 2 cuLaunchKernel,nvtx-worker' ] || fail "calls --range load@mylib: $(cat "$tmp/load.csv")"
"$report" calls -f csv --range 'load@otherlib' "$tmp/all.ctrace" 2>"$tmp/err" | tail -n +2 | grep -q . &&
    fail "a range of another domain matched"
grep -q "no NVTX range 'load@otherlib'" "$tmp/err" || fail "no warning for a range that is not there"
# ... and summarize them: "which kernels does backward launch".
"$report" summary -f csv -s kernels --range backward "$tmp/all.ctrace" >"$tmp/bwd.csv" || fail "summary --range"
grep -q ',kernelB$' "$tmp/bwd.csv" && ! grep -q kernelF "$tmp/bwd.csv" || fail "summary --range backward: $(cat "$tmp/bwd.csv")"
grep -q '^[0-9.]*,[0-9]*,3,.*,kernelB$' "$tmp/bwd.csv" || fail "summary --range backward launches: $(cat "$tmp/bwd.csv")"

# Thread names in calls (the table and csv) and info.
grep -q ",$worker,nvtx-worker," "$tmp/load.csv" || fail "calls csv thread name"
"$report" info -f csv "$tmp/all.ctrace" >"$tmp/info.csv" || fail "info exit $?"
grep -q "^$worker,4,[0-9]*,nvtx-worker\$" "$tmp/info.csv" || fail "info thread name: $(grep "^$worker," "$tmp/info.csv")"
grep -q "^$main,[0-9]*,[0-9]*,main-renamed\$" "$tmp/info.csv" || fail "info main thread name"
grep -q '^nvtx,[0-9]*$\|^[0-9]*,nvtx$' "$tmp/info.csv" || fail "info counts no nvtx records: $(cat "$tmp/info.csv")"

# The Chrome export: push/pop ranges as slices on their thread, start/end as async slices, the mark.
"$report" export --format chrome -o "$tmp/t.json" "$tmp/all.ctrace" || fail "export exit $?"
"$CT_PYTHON3" - "$tmp/t.json" "$main" "$worker" <<'PY' || fail "chrome export"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
main, worker = int(sys.argv[2]), int(sys.argv[3])
nv = [e for e in ev if e.get("cat") == "nvtx"]
slices = sorted((e["name"], e["tid"]) for e in nv if e["ph"] == "X")
assert slices.count(("forward", main)) == 3 and slices.count(("step", main)) == 3, slices
assert ("load", worker) in slices, slices
fwd = [e for e in nv if e["name"] == "forward"]
assert all(e["args"] == {"domain": "", "category": 1, "category_name": "compute", "color": "#00a000"} for e in fwd), fwd
assert [e["ph"] for e in nv if e["name"] == "io"] == ["b", "e"], nv
assert [e["ph"] for e in nv if e["name"] == "checkpoint"] == ["i"], nv
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
assert names[worker] == "nvtx-worker (tid %d)" % worker and names[main].startswith("main-renamed"), names
# every forward slice holds its two launches
for f in fwd:
    inside = [e for e in ev if e.get("cat", "").startswith("cuda_api") and e["tid"] == main
              and f["ts"] <= e["ts"] <= f["ts"] + f["dur"]]
    assert len(inside) == 2 and all("kernelF" in e["name"] for e in inside), inside
PY

# The SQLite export's nvtx_events (nsys's NVTX_EVENTS event types: 59 push/pop, 60 start/end, 34 mark):
# every range and the mark, names, domain, category and color, the mark without an end, ends after starts.
if grep -q '^#define HAVE_SQLITE 1' "$CT_TOP_BUILDDIR/config.h"; then
    "$report" export --format sqlite -o "$tmp/t.sqlite" "$tmp/all.ctrace" || fail "sqlite export exit $?"
    "$CT_PYTHON3" - "$tmp/t.sqlite" "$worker" <<'PY' || fail "sqlite nvtx_events"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT e.tid, e.start, e.end, e.event_type, s.value, d.value, e.category, c.value, e.color,"
                  " e.depth FROM nvtx_events e LEFT JOIN strings s ON s.id = e.text_id"
                  " LEFT JOIN strings d ON d.id = e.domain_id LEFT JOIN strings c ON c.id = e.category_id").fetchall()
kinds = sorted(r[3] for r in rows)
assert kinds == [34] + [59] * 12 + [60], kinds
mark = [r for r in rows if r[3] == 34]
assert mark[0][4] == "checkpoint" and mark[0][2] is None, mark
io = [r for r in rows if r[3] == 60]
assert io[0][4] == "io" and io[0][2] >= io[0][1], io
fwd = [r for r in rows if r[4] == "forward"]
assert len(fwd) == 3 and all(r[6] == 1 and r[7] == "compute" and r[8] == 0xff00a000 for r in fwd), fwd
load = [r for r in rows if r[4] == "load"]
assert len(load) == 1 and load[0][5] == "mylib" and load[0][0] == int(sys.argv[2]), load
assert all(r[2] is None or r[2] >= r[1] for r in rows), rows
assert any(r[9] > 0 for r in rows if r[3] == 59), "no nested push/pop range"
PY
fi

# CUDATRACE_CAPTURE=nvtx:RANGE: only the calls inside "step" (3 iterations of 3 launches), and the header
# says so.
export CUDATRACE_CAPTURE=nvtx:step
run_pair step "$prog"
expect_count step 9 '^call .* name=cuLaunchKernel '
expect_count step 0 '^call .* name=(cuInit|cuModuleLoadData|cuCtxSynchronize) '
expect_count step 3 '^nvtx push .* name=step '
expect_count step 0 '^nvtx push .* name=(setup|load|wide-ü) '
"$report" summary -f csv -s header "$tmp/step.ctrace" | grep -q '^Calls recorded from,one NVTX range only' ||
    fail "summary does not say the trace holds one NVTX range only"
export CUDATRACE_CAPTURE=nvtx:load@mylib
run_pair load "$prog"
expect_count load 2 '^call .* name=cuLaunchKernel '
expect_count load 1 '^call .* name=cuCtxSynchronize '
export CUDATRACE_CAPTURE=nvtx:load # the default domain has no "load"
run_pair nodomain "$prog"
expect_count nodomain 0 '^call '
unset CUDATRACE_CAPTURE

# The user's own NVTX_INJECTION64_PATH: the tracer loads it and calls on to it (CUDATRACE_NVTX_FORWARD).
export NVTX_INJECTION64_PATH=$CT_TOP_BUILDDIR/tests/integration/.libs/libnvtxcount.so
run_pair fwd "$prog"
grep -q '^nvtxcount: 12 pushes, 12 pops, 1 marks, domain mylib, string load$' "$tmp/fwd.traced.err" ||
    fail "the user's injection library: $(cat "$tmp/fwd.traced.err")"
expect_count fwd 12 '^nvtx push '
unset NVTX_INJECTION64_PATH

# Preloaded by a relative name (LD_PRELOAD=./libcudatrace.so): still NVTX's injection library (by its full
# path, which stays right if the program changes directory).
lib_dir=$(dirname "$CT_PRELOAD")
(cd "$lib_dir" && CUDATRACE_OUTPUT=$tmp/rel.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
    LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}./$(basename "$CT_PRELOAD") "$prog" >/dev/null 2>&1) ||
    fail "relative LD_PRELOAD: exit $?"
[ "$("$ctdump" "$tmp/rel.ctrace" | grep -c '^nvtx push ')" = 12 ] || fail "relative LD_PRELOAD: NVTX not recorded"

# The user's NVTX_INJECTION64_PATH names this very library by another name (a symlink): it must not call on
# to itself (which recursed until the stack ran out).
ln -s "$(realpath "$CT_PRELOAD")" "$tmp/alias.so"
NVTX_INJECTION64_PATH=$tmp/alias.so run_pair self "$prog"
expect_count self 12 '^nvtx push '

# The recorder started by an NVTX call (nvtxNameCategoryA, before any driver call) starts GPU time outside
# any trampoline: its look-ups of libcupti's functions must still get libcupti's.  Given the tracer's own
# CUPTI exports, the writer's collections (every ms here, while a synchronization waits out 5 ms kernels)
# took the tracer's flush for the program's, and GPU time handed CUPTI over to nobody.
unset CUDATRACE_GPU_TIME CUDATRACE_CUPTI
if [ -f "$CT_SIMDRIVER_DIR/libcupti.so.13" ]; then
    SIM_KERNEL_NS=5000000 CUDATRACE_FLUSH_MS=1 run_pair cupti "$prog"
    grep -q "GPU time" "$tmp/cupti.traced.err" && fail "cupti: $(cat "$tmp/cupti.traced.err")"
    expect_count cupti 1 '^gpu-info .* final=1 timed=12 .* source=activity why=chosen '
fi
exit 0
