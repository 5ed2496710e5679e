#!/bin/sh
# cudatrace-report export: Chrome Trace Event JSON (valid, required fields, one X slice per call, the device
# memory counter following the allocations), CSV (one row per call, fixed columns), JSON lines.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

run_report 0 export --format chrome -o "$TMP/trace.json" "$TMP/parent.ct" "$TMP/child.ct"
cp "$TMP/trace.json" "$TMP/out"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["displayTimeUnit"] == "ns"
ev = d["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
assert len(x) == 23, len(x)
for e in x:
    for k in ("name", "ts", "dur", "pid", "tid", "cat", "args"):
        assert k in e, (k, e)
    assert e["dur"] >= 0 and "result" in e["args"]
meta = {(e["name"], e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M"}
assert meta[("process_name", 1000, 0)] == "./vecadd 3 --fast (pid 1000)", meta
assert meta[("thread_name", 1000, 1001)] == "worker (tid 1001)" and ("process_name", 2000, 0) in meta, meta
# ts/dur in microseconds with the ns as decimals
h2d = [e for e in x if e["name"] == "cuMemcpyHtoD"]
assert [(e["ts"], e["dur"]) for e in h2d] == [(5.0, 1.0), (7.0, 3.0), (23.0, 0.8)], h2d
launch = [e for e in x if e["args"].get("kernel") == "void scale<float>(float*, float, int)"]
assert len(launch) == 1 and launch[0]["name"] == "cuLaunchKernel_ptsz void scale<float>(float*, float, int)", launch
assert launch[0]["args"]["grid"] == "16,1,1"
oom = [e for e in x if e["args"]["result"] == "CUDA_ERROR_OUT_OF_MEMORY"]
assert len(oom) == 1 and oom[0]["args"]["bytes"] == 1 << 40
c = sorted(((e["pid"], e["ts"], e["args"]["bytes"]) for e in ev if e["ph"] == "C" and e["name"] == "device memory"))
assert c == [(1000, 2.1, 4096), (1000, 3.3, 12288), (1000, 20.15, 28672), (1000, 30.06, 12288),
             (1000, 31.07, 8192), (2000, 60.1, 1024), (2000, 62.08, 0)], c
'
# a launch slice carries its kernel, and the X slices come in time order
grep -c '"ph":"X"' "$TMP/trace.json" >/dev/null || fail "no X slices"

run_report 0 export --format csv "$TMP/parent.ct" "$TMP/child.ct"
py '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 23, len(rows)
with open(sys.argv[1]) as f:
    widths = {len(r) for r in csv.reader(f)}
assert widths == {44}, widths
l = [r for r in rows if r["name"] == "cuLaunchKernel_ptsz"][0]
assert (l["kernel"], l["grid_x"], l["block_x"], l["bytes"], l["operation"]) == ("void scale<float>(float*, float, int)", "16", "64", "", ""), l
a = [r for r in rows if r["name"] == "cuMemAllocHost"][0]
assert (a["bytes"], a["mem_kind"], a["tid"], a["start_ns"]) == ("1048576", "pinned", "1001", "17000"), a
s = [r for r in rows if r["name"] == "cuMemsetD8"][0]
assert (s["operation"], s["copy_flags"], s["bytes"]) == ("[CUDA memset]", "set", "8192"), s
'

run_report 0 export --format json "$TMP/parent.ct" "$TMP/child.ct"
py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
files = [r for r in rows if r["type"] == "file"]
calls = [r for r in rows if r["type"] == "call"]
assert len(files) == 2 and len(calls) == 23
assert files[0]["lost"] == 7 and files[0]["untraced"] == 2 and files[0]["complete"] is True
assert {t["name"] for t in files[0]["threads"]} == {"main", "worker"}
assert files[1]["pid"] == 2000 and files[1]["start_ns"] == 50000, files[1]
'
run_report 1 export "$TMP/parent.ct"
run_report 1 export --format pdf "$TMP/parent.ct"
run_report 0 export --help
grep -q 'chrome' "$TMP/out" || fail "export --help"
finish
