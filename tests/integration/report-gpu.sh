#!/bin/sh
# GPU time (format 5) in every command, on report-gen's `gpu` trace whose spans are known exactly: the summary's
# gpu_kernels, gpu_copies_time and gpu_copies_size (sampled: Timed column, estimated totals, a sampled span
# weighing its 1 in N), its header, calls' GPU columns, the exports (Chrome GPU tracks, slices and flows; csv
# and json fields), info, ctdump; a trace timed in full (no estimate), one with GPU time off (a format-7
# gpu-info record), a format-4 trace (no GPU records), and one timed by CUPTI's activity records then by
# events (`gpuact`: a graph's kernels, a span without a call, the hand-over to the program).
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
CTDUMP=$CT_TOP_BUILDDIR/tests/integration/ctdump
"$GEN" gpu "$TMP/gpu.ct" && "$GEN" gpuoff "$TMP/off.ct" && "$GEN" gpubig 8 "$TMP/all.ct" && "$GEN" gpuact "$TMP/act.ct" ||
    { echo "report-gen failed" >&2; exit 99; }

# gpu_kernels, sampled (n 4).  kernelA: shape 8/256 6 launches, 3 timed (1000, 1200 for themselves, 1400 as
# the sample of 4: weighed mean 7800 / 6 = 1300, x 6 = 7800); 16/128 both timed (3000 + 5000); 32/64 never
# timed (the kernel's weighed mean, 15800 / 8 = 1975); Avg 17775 / 9.  The graph: 1 of 2 timed (4000 x 2).
# kernelB: all 3 timed (exact, whatever the weights).  kernelC: none.  The failed launch and the host
# function count nowhere.
run_report 0 summary -s gpu_kernels -f csv "$TMP/gpu.ct"
expect_eq "gpu_kernels csv" 'Time (%),"Total Time (ns, est.)",Instances,Timed,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
67.4,17775,9,5,1975.0,1400.0,1000,5000,1694.7,kernelA(float*)
30.3,8000,2,1,4000.0,4000.0,4000,4000,0.0,[CUDA graph 0xabc]
2.3,600,3,3,200.0,200.0,100,300,100.0,kernelB
,,2,0,,,,,,kernelC' "$(cat "$TMP/out")"

# copies: H2D 1e6 bytes twice (one timed, 500: 1000) and 4096 once (50): Avg 1050 / 3; D2H 800; memset 1 of 2
# timed (20 x 2).
run_report 0 summary -s gpu_copies_time,gpu_copies_size -f csv "$TMP/gpu.ct"
expect_eq "gpu_copies csv" '# gpu_copies_time
Time (%),"Total Time (ns, est.)",Count,Timed,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation
55.6,1050,3,2,350.0,275.0,50,500,318.2,[CUDA memcpy Host-to-Device]
42.3,800,1,1,800.0,800.0,800,800,0.0,[CUDA memcpy Device-to-Host]
2.1,40,2,1,20.0,20.0,20,20,0.0,[CUDA memset]

# gpu_copies_size
Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation
2.004,3,0.668,1.000,0.004,1.000,0.575,[CUDA memcpy Host-to-Device]
2.000,1,2.000,2.000,2.000,2.000,0.000,[CUDA memcpy Device-to-Host]
0.016,2,0.008,0.008,0.008,0.008,0.000,[CUDA memset]' "$(cat "$TMP/out")"

run_report 0 summary -s gpu_kernels -f csv -u us --top 1 "$TMP/gpu.ct"
expect_eq "gpu_kernels in us" 'Time (%),"Total Time (us, est.)",Instances,Timed,Avg (us),Med (us),Min (us),Max (us),StdDev (us),Name
67.4,17.775,9,5,1.975,1.400,1.000,5.000,1.695,kernelA(float*)' "$(cat "$TMP/out")"

# json: the header's GPU lines, the tables keyed by their titles; the host tables' titles say host time.
run_report 0 summary -f json "$TMP/gpu.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["header"]
assert h["GPU time"] == "timing events: the first 2 calls of each kind, then 1 in 4", h
assert (h["GPU spans"], h["GPU untimed: no free event"], h["GPU untimed: event refused"],
        h["GPU untimed: stream capture"], h["GPU not completed"]) == (13, 2, 3, 4, 1), h
assert "GPU counts" not in h, h
k = d["gpu_kernels"]
assert [r["Name"] for r in k] == ["kernelA(float*)", "[CUDA graph 0xabc]", "kernelB", "kernelC"], k
assert k[0]["Total Time (ns, est.)"] == 17775 and k[0]["Instances"] == 9 and k[0]["Timed"] == 5, k[0]
assert k[3]["Avg (ns)"] == "" and k[3]["Instances"] == 2, k[3]
assert list(d["kernels"][0])[:3] == ["Host Time (%)", "Host Total Time (ns)", "Launches"], d["kernels"][0]
assert "Host Total Time (ns)" in d["copies"][0], d["copies"][0]
c = {r["Operation"]: r for r in d["gpu_copies_size"]}
assert c["[CUDA memcpy Host-to-Device]"]["Total (MB)"] == 2.004, c
'
run_report 0 summary -f table -s header "$TMP/gpu.ct"
grep -q '^ GPU time  *timing events: the first 2 calls of each kind, then 1 in 4$' "$TMP/out" || fail "table header: $(cat "$TMP/out")"

# Timed in full (GPU time all): nsys's columns exactly, no Timed, no estimate.
run_report 0 summary -s gpu_kernels -f csv "$TMP/all.ct"
expect_eq "gpu_kernels, all timed" 'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
25.1,1010,2,505.0,505.0,503,507,2.8,kernel4
25.0,1008,2,504.0,504.0,502,506,2.8,kernel3
25.0,1006,2,503.0,503.0,501,505,2.8,kernel2
24.9,1004,2,502.0,502.0,500,504,2.8,kernel1' "$(cat "$TMP/out")"

# GPU time off, and a format-4 trace: the GPU tables are empty, the header says why.
run_report 0 summary -f json "$TMP/off.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["header"]["GPU time"] == "off" and "GPU spans" not in d["header"], d["header"]
assert d["gpu_kernels"] == [] and d["gpu_copies_time"] == [] and d["gpu_copies_size"] == [], d
assert d["kernels"][0]["Launches"] == 1
'
cp "$TMP/parent.ct" "$TMP/v4.ct"
printf '\004' | dd of="$TMP/v4.ct" bs=1 seek=8 conv=notrunc 2>/dev/null
run_report 0 summary -f json "$TMP/v4.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["header"]["Format version"] == 4 and d["header"]["GPU time"] == "no GPU spans", d["header"]
assert d["gpu_kernels"] == [] and d["gpu_copies_time"] == [] and d["gpu_copies_size"] == [], d
assert d["kernels"][0]["Launches"] == 4
'
run_report 0 summary -f table -s gpu_kernels "$TMP/v4.ct"
expect_eq "empty gpu_kernels table" 'GPU kernels (GPU time):

 (none)' "$(cat "$TMP/out")"
run_report 0 calls -f csv "$TMP/v4.ct"
expect_eq "format 4: GPU columns empty" 20 "$(tail -n +2 "$TMP/out" | cut -d, -f11,12 | grep -c '^,$')"

# calls: GPU start (since the trace start) and duration; empty for untimed calls.
run_report 0 calls -f csv "$TMP/gpu.ct"
expect_eq "calls csv header" 'Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,Thread Name,Variant,Result Name,GPU Start (ns),GPU Duration (ns),Arguments' "$(head -n 1 "$TMP/out")"
expect_eq "calls csv GPU columns" '1000,100,1,1200,500
2000,100,2,,
3000,100,3,3150,50
4000,100,4,4100,1000
5000,200,22,5300,4000
6000,100,5,6100,1200
8000,100,6,,' "$(sed -n 2,8p "$TMP/out" | cut -d, -f1,2,5,11,12)"
expect_eq "calls csv timed" 13 "$(tail -n +2 "$TMP/out" | cut -d, -f12 | grep -c .)"
run_report 0 calls -f csv -u us --api cuMemcpyDtoH "$TMP/gpu.ct"
expect_eq "calls csv in us" '33.000,0.900,24,6000,6001,33.050,0.800' "$(tail -n 1 "$TMP/out" | cut -d, -f1,2,5,6,7,11,12)"
run_report 0 calls -f json "$TMP/gpu.ct"
py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
g = {r["seq"]: r["gpu"] for r in rows if "gpu" in r}
assert sorted(g) == [1, 3, 4, 5, 9, 10, 11, 13, 14, 15, 20, 22, 24], sorted(g)
assert g[13] == {"start": 24100, "duration": 100, "device": 0, "stream": "0x2"}, g[13]
assert g[24] == {"start": 33050, "duration": 800, "device": 1, "stream": "0x20"}, g[24]
'
run_report 0 calls -f table --api cuGraphLaunch "$TMP/gpu.ct"
expect_eq "calls table" '      Start (ns)  Duration (ns)  Name                         Result                            Pid      Tid Thread Name        GPU Start (ns) GPU Duration (ns)  Arguments
            5000            200  cuGraphLaunch                CUDA_SUCCESS                     6000     6001 -                            5300              4000  kernel=[graph] kind=graph grid=0,1,1 block=0,1,1 shmem=0 stream=0x0 function=0xabc
           20000            200  cuGraphLaunch                CUDA_SUCCESS                     6000     6001 -                                                    kernel=[graph] kind=graph grid=0,1,1 block=0,1,1 shmem=0 stream=0x0 function=0xabc' "$(cat "$TMP/out")"

# Chrome: a process per device, a track per stream, a slice per span, a flow from each call to its span.
run_report 0 export -f chrome "$TMP/gpu.ct"
py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
meta = {(e["name"], e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M"}
gpu0, gpu1 = 1000000001, 1000000002
assert meta[("process_name", gpu0, 0)] == "GPU 0" and meta[("process_name", gpu1, 0)] == "GPU 1", meta
tracks = {(p, t): n for (k, p, t), n in meta.items() if k == "thread_name" and p >= gpu0}
assert sorted(tracks.values()) == ["stream 0x0", "stream 0x10", "stream 0x2", "stream 0x20", "stream 0x20"], tracks
x = [e for e in ev if e["ph"] == "X" and e["pid"] >= gpu0]
got = "\n".join("%d %s %s %s %s %s" % (e["args"]["seq"], e["cat"], e["ts"], e["dur"], tracks[(e["pid"], e["tid"])], e["name"])
                for e in sorted(x, key=lambda e: e["args"]["seq"]))
assert got == """1 gpu_copy 1.2 0.5 stream 0x0 [CUDA memcpy Host-to-Device]
3 gpu_copy 3.15 0.05 stream 0x0 [CUDA memcpy Host-to-Device]
4 gpu_kernel 4.1 1.0 stream 0x10 kernelA(float*)
5 gpu_kernel 6.1 1.2 stream 0x10 kernelA(float*)
9 gpu_kernel 11.1 1.4 stream 0x10 kernelA(float*)
10 gpu_kernel 13.1 3.0 stream 0x10 kernelA(float*)
11 gpu_kernel 17.1 5.0 stream 0x10 kernelA(float*)
13 gpu_kernel 24.1 0.1 stream 0x2 kernelB
14 gpu_kernel 25.1 0.2 stream 0x2 kernelB
15 gpu_kernel 26.1 0.3 stream 0x2 kernelB
20 gpu_copy 31.1 0.02 stream 0x0 [CUDA memset]
22 gpu_graph 5.3 4.0 stream 0x20 [CUDA graph 0xabc]
24 gpu_copy 33.05 0.8 stream 0x20 [CUDA memcpy Device-to-Host]""", got
assert [e["pid"] for e in x if e["args"]["seq"] == 24] == [gpu1]
a = {e["args"]["seq"]: e["args"] for e in x}
assert a[4]["grid"] == "8,1,1" and a[4]["block"] == "256,1,1" and a[4]["tid"] == 6000, a[4]
assert a[1]["bytes"] == 1000000 and a[22]["graph"] == "0xabc" and a[22]["tid"] == 6001, a
calls = {e["args"]["seq"]: e for e in ev if e["ph"] == "X" and e["pid"] == 6000}
spans = {e["args"]["seq"]: e for e in x}
s = {e["id"]: e for e in ev if e["ph"] == "s"}
f = {e["id"]: e for e in ev if e["ph"] == "f"}
assert len(s) == len(f) == 13 and set(s) == set(f), (s, f)
for i in s:
    src, dst = s[i], f[i]
    assert src["cat"] == dst["cat"] == "gpu" and dst["bp"] == "e", (src, dst)
    call = [c for c in calls.values() if (c["pid"], c["tid"], c["ts"]) == (src["pid"], src["tid"], src["ts"])]
    span = spans[call[0]["args"]["seq"]]
    assert (dst["pid"], dst["tid"], dst["ts"]) == (span["pid"], span["tid"], span["ts"]), (src, dst, span)
'

# export csv and json: the GPU fields of each call, empty when untimed; the file's GPU info.
run_report 0 export -f csv "$TMP/gpu.ct"
py '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[1]) as f:
    assert {len(r) for r in csv.reader(f)} == {44}
r = {x["seq"]: x for x in rows}
assert [r["4"][k] for k in ("gpu_start_ns", "gpu_duration_ns", "gpu_device", "gpu_stream")] == ["4100", "1000", "0", "0x10"], r["4"]
assert [r["2"][k] for k in ("gpu_start_ns", "gpu_duration_ns", "gpu_device", "gpu_stream")] == ["", "", "", ""], r["2"]
assert sum(1 for x in rows if x["gpu_start_ns"]) == 13
'
run_report 0 export -f json "$TMP/gpu.ct"
py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
f = rows[0]["gpu"]
assert f == {"spans": 13, "mode": "sample", "sample_n": 4, "sample_k": 2, "final": True, "timed": 13,
             "not_completed": 1, "untimed_pool": 2, "untimed_refused": 3, "untimed_capture": 4, "source": "events",
             "reason": "chosen", "requested": "sample", "source_start_ns": 0, "no_call": 0, "dropped": 0}, f
assert sum(1 for r in rows if "gpu" in r and r["type"] == "call") == 13
'

# info: the records and the gpu table.
run_report 0 info -f json "$TMP/gpu.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
rec = {r["Type"]: r["Count"] for r in d["records"]}
assert rec["gpu"] == 13 and rec["gpu-info"] == 2, rec
assert d["gpu"] == {"GPU time": "timing events: the first 2 calls of each kind, then 1 in 4", "Source": "events",
                    "Asked for (CUDATRACE_GPU_TIME)": "sample", "GPU spans": 13,
                    "Sample 1 in N": 4, "Sample first K": 2, "Final counts": "yes", "Timed (writer'"'"'s count)": 13,
                    "Not completed": 1, "Untimed: no free event": 2, "Untimed: event refused": 3,
                    "Untimed: stream capture": 4, "Spans without a call": 0, "Records CUPTI dropped": 0}, d["gpu"]
'
run_report 0 info -f json "$TMP/v4.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["gpu"] == {"GPU time": "unknown (no gpu-info record)", "GPU spans": 0}, d["gpu"]
'

# ctdump prints both records.
"$CTDUMP" "$TMP/gpu.ct" >"$TMP/dump" || fail "ctdump"
expect_eq "ctdump gpu" 'gpu seq=24 tid=6001 name=cuMemcpyDtoH start=1000033050 dur=800 device=1 stream=0x20 span=none copy bytes=2000000 src_kind=device dst_kind=host flags=none
gpu seq=22 tid=6001 name=cuGraphLaunch start=1000005300 dur=4000 device=0 stream=0x20 span=none launch kernel=? kind=graph grid=0,1,1 block=0,1,1
gpu-info mode=sample n=4 k=2 final=1 timed=13 not_completed=1 untimed_pool=2 untimed_refused=3 untimed_capture=4 source=events why=chosen request=sample source_ns=0 no_call=0 dropped=0' "$(grep '^gpu' "$TMP/dump" | tail -n 3)"
expect_eq "ctdump gpu lines" 15 "$(grep -c '^gpu' "$TMP/dump")"
expect_eq "ctdump sampled spans" 2 "$(grep -c '^gpu seq=.* span=sampled ' "$TMP/dump")"

# GPU time off, written as format 7 wrote it (a gpu-info record of 64 bytes): read as off, asked for off.
run_report 0 info -f json "$TMP/off.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["gpu"]["GPU time"] == "off" and d["gpu"]["Source"] == "none" and d["gpu"]["Asked for (CUDATRACE_GPU_TIME)"] == "off", d["gpu"]
'

# CUPTI's activity records, then events once the program took CUPTI (report-gen gpuact): kernelA 1000, 1100
# (activity), 900 (events) and one launch not timed by events (counted; the one whose activity record was
# lost is not); the graph's two kernels each in its kernel's row; the span without a call counted in
# kernelB's; the header says what timed what.
run_report 0 summary -s header,gpu_kernels -f csv "$TMP/act.ct"
expect_eq "activity: gpu_kernels" 'Time (%),"Total Time (ns, est.)",Instances,Timed,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
81.6,4000,4,3,1000.0,1000.0,900,1100,100.0,kernelA
14.3,700,2,2,350.0,350.0,300,400,70.7,kernelB
4.1,200,1,1,200.0,200.0,200,200,0.0,kernelC' "$(sed -n '/^# gpu_kernels/,$p' "$TMP/out" | tail -n +2)"
grep -q '^GPU time,"timing events: the first 2 calls of each kind, then 1 in 4 (CUPTI activity until 0.020 ms into the trace: the program uses CUPTI)"$' "$TMP/out" ||
    fail "activity: header GPU time: $(grep '^GPU time' "$TMP/out")"
grep -q '^GPU spans without a call,1$' "$TMP/out" && grep -q '^GPU records CUPTI dropped,3$' "$TMP/out" ||
    fail "activity: header counts: $(grep '^GPU' "$TMP/out")"
"$CTDUMP" "$TMP/act.ct" >"$TMP/actdump" || fail "activity: ctdump"
expect_eq "activity: ctdump names no function for the span without a call" \
    'gpu seq=0 tid=0 name=- start=1000009000 dur=400 device=0 stream=0x7 span=no-call,activity launch kernel=kernelB kind=kernel grid=4,1,1 block=32,1,1' \
    "$(grep '^gpu seq=.* span=no-call' "$TMP/actdump")"
run_report 0 summary -s gpu_kernels --range nothing -f csv "$TMP/act.ct"
run_report 0 calls -f csv --api cuGraphLaunch "$TMP/act.ct"
expect_eq "activity: the graph launch's GPU columns span its kernels" '3000,100,3,3100,500' "$(tail -n 1 "$TMP/out" | cut -d, -f1,2,5,11,12)"
run_report 0 export -f chrome "$TMP/act.ct"
py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = sorted((e["args"]["seq"], e["name"], e["dur"]) for e in ev if e["ph"] == "X" and e["pid"] >= 1000000000)
assert x == [(1, "kernelA", 1.0), (2, "kernelA", 1.1), (3, "kernelB", 0.3), (3, "kernelC", 0.2), (5, "[CUDA memcpy Host-to-Device]", 0.05), (6, "kernelA", 0.9)], x
'
if grep -q '^#define HAVE_SQLITE 1' "$CT_TOP_BUILDDIR/config.h"; then
    run_report 0 export -f sqlite -o "$TMP/act.sqlite" "$TMP/act.ct"
    sql() {
        "$PY" -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in r))' "$TMP/act.sqlite" "$1"
    }
    expect_eq "activity: sqlite gpu_spans of the graph launch" '3|300|kernelB
3|200|kernelC' "$(sql 'SELECT call_id, duration, value FROM gpu_spans JOIN strings ON name_id = id WHERE call_id = 3 ORDER BY start')"
    expect_eq "activity: sqlite gpu_info" 'events|program|auto|20000|1|3' \
        "$(sql 'SELECT source, reason, requested, source_start, no_call, dropped FROM gpu_info')"
fi
finish
