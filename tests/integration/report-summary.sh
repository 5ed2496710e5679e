#!/bin/sh
# cudatrace-report summary on traces whose calls are known exactly (tests/integration/report-gen.c): the
# json and csv numbers of every section, one file and two merged, units, --top, --section.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

run_report 0 summary --format json "$TMP/parent.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["header"]
assert h["Calls recorded"] == 20 and h["Calls lost"] == 7 and h["Untraced pointers"] == 2, h
assert h["Pids"] == "1000" and h["Hosts"] == "testhost" and h["Command line"] == "./vecadd 3 --fast", h
assert h["Duration (ns)"] == 40000 and h["Driver version"] == "13.0 (13000)", h
assert "NVIDIA Test GPU" in h["Devices"], h

api = d["api"]
cols = ["Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)", "Name"]
assert list(api[0].keys()) == cols, list(api[0].keys())
names = [r["Name"] for r in api]
assert names == ["cuCtxSynchronize", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemAlloc", "cuInit", "cuMemcpyDtoD",
                 "cuMemAllocHost", "cuMemFree", "cuLaunchKernel", "cuMemsetD8", "cuLaunchKernel_ptsz"], names
row = {r["Name"]: r for r in api}
h2d = row["cuMemcpyHtoD"]
assert (h2d["Num Calls"], h2d["Total Time (ns)"], h2d["Min (ns)"], h2d["Max (ns)"]) == (3, 4800, 800, 3000), h2d
assert h2d["Avg (ns)"] == 1600.0 and h2d["Med (ns)"] == 1000.0 and h2d["StdDev (ns)"] == 1216.6, h2d
alloc = row["cuMemAlloc"]
assert alloc["Num Calls"] == 4 and alloc["Total Time (ns)"] == 600 and alloc["Med (ns)"] == 125.0, alloc
assert row["cuLaunchKernel"]["Num Calls"] == 4 and row["cuLaunchKernel_ptsz"]["Num Calls"] == 1
assert sum(r["Num Calls"] for r in api) == 20
assert abs(sum(r["Time (%)"] for r in api) - 100) < 0.6
assert row["cuCtxSynchronize"]["Time (%)"] == 35.9, row["cuCtxSynchronize"]

k = {r["Name"]: r for r in d["kernels"]}
assert set(k) == {"vecAdd", "void scale<float>(float*, float, int)"}, set(k)
assert k["vecAdd"]["Launches"] == 4 and k["vecAdd"]["Host Total Time (ns)"] == 125 and k["vecAdd"]["Shapes"] == 2
assert k["void scale<float>(float*, float, int)"]["Launches"] == 1
shapes = sorted((s["Name"], s["GridXYZ"], s["BlockXYZ"], s["Launches"]) for s in d["kernel_shapes"])
assert shapes == [("vecAdd", "4 1 1", "256 1 1", 3), ("vecAdd", "8 1 1", "128 1 1", 1),
                  ("void scale<float>(float*, float, int)", "16 1 1", "64 1 1", 1)], shapes

c = {r["Operation"]: r for r in d["copies"]}
assert set(c) == {"[CUDA memcpy Host-to-Device]", "[CUDA memcpy Device-to-Host]", "[CUDA memcpy Device-to-Device]",
                  "[CUDA memset]"}, set(c)
h = c["[CUDA memcpy Host-to-Device]"]
assert (h["Count"], h["Total Bytes"], h["Min Bytes"], h["Max Bytes"], h["Host Total Time (ns)"]) == (3, 10240, 2048, 4096, 4800), h
assert c["[CUDA memset]"]["Total Bytes"] == 8192 and c["[CUDA memcpy Device-to-Device]"]["Total Bytes"] == 16384
assert c["[CUDA memcpy Device-to-Host]"]["Count"] == 1

m = {r["Kind"]: r for r in d["memory"]}
dev = m["device"]
assert (dev["Allocs"], dev["Alloc Bytes"], dev["Frees"], dev["Freed Bytes"]) == (3, 28672, 2, 20480), dev
assert (dev["Peak Bytes"], dev["Peak At (ns)"], dev["Live At Exit"], dev["Live Bytes At Exit"]) == (28672, 20150, 1, 8192), dev
pin = m["pinned"]
assert (pin["Allocs"], pin["Peak Bytes"], pin["Live Bytes At Exit"]) == (1, 1048576, 1048576), pin
assert m["total on device"]["Peak Bytes"] == 28672
assert not any("before tracing" in k for k in m), m

e = d["errors"]
assert len(e) == 1 and e[0]["Name"] == "cuMemAlloc" and e[0]["Result Name"] == "CUDA_ERROR_OUT_OF_MEMORY" \
    and e[0]["Result"] == 2 and e[0]["Count"] == 1, e
'
# Processes of another command line merged in are said in the header, not hidden behind the first one's.
run_report 0 summary --format json -s header "$TMP/parent.ct" "$TMP/child.ct"
py '
import json, sys
h = json.load(open(sys.argv[1]))["header"]
assert h["Command line"] == "./vecadd 3 --fast (and 1 process of other command lines: info shows each)", h
'

# Two files merged: the child (same host) adds a cuMemAlloc, a launch of vecAdd and a cuMemFree.
run_report 0 summary -f json "$TMP/parent.ct" "$TMP/child.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["header"]["Calls recorded"] == 23 and d["header"]["Pids"] == "1000, 2000", d["header"]
assert d["header"]["Duration (ns)"] == 70000, d["header"]
row = {r["Name"]: r for r in d["api"]}
assert row["cuMemAlloc"]["Num Calls"] == 5 and row["cuMemFree"]["Num Calls"] == 3 and row["cuLaunchKernel"]["Num Calls"] == 5
k = {r["Name"]: r for r in d["kernels"]}
assert k["vecAdd"]["Launches"] == 5 and k["vecAdd"]["Host Max (ns)"] == 45
s = [x for x in d["kernel_shapes"] if x["Name"] == "vecAdd" and x["GridXYZ"] == "4 1 1"]
assert s[0]["Launches"] == 4, s
dev = {r["Kind"]: r for r in d["memory"]}["device"]
assert (dev["Allocs"], dev["Frees"], dev["Peak Bytes"], dev["Live Bytes At Exit"]) == (4, 3, 28672, 8192), dev
'

# csv: the nsys header line, one row per API, sections labelled when several.
run_report 0 summary --format csv --section api "$TMP/parent.ct"
expect_eq "csv api header" 'Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name' "$(head -n 1 "$TMP/out")"
expect_eq "csv api rows" 12 "$(wc -l <"$TMP/out" | tr -d ' ')"
expect_eq "csv cuMemcpyHtoD row" '34.5,4800,3,1600.0,1000.0,800,3000,1216.6,cuMemcpyHtoD' "$(grep ',cuMemcpyHtoD$' "$TMP/out")"
run_report 0 summary -f csv -s api,errors "$TMP/parent.ct"
expect_eq "csv section labels" '# api,# errors' "$(grep '^# ' "$TMP/out" | paste -sd, -)"
grep -q '^1,2,CUDA_ERROR_OUT_OF_MEMORY,cuMemAlloc$' "$TMP/out" || fail "csv error row missing: $(cat "$TMP/out")"
# default format into a pipe or file is csv
run_report 0 summary -s api "$TMP/parent.ct"
expect_eq "default format off a terminal" 'Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name' "$(head -n 1 "$TMP/out")"

# --timeunit changes titles and values; --top limits rows.
run_report 0 summary -f csv -s api --timeunit us --top 2 "$TMP/parent.ct"
expect_eq "us header" 'Time (%),Total Time (us),Num Calls,Avg (us),Med (us),Min (us),Max (us),StdDev (us),Name' "$(head -n 1 "$TMP/out")"
expect_eq "us first row" '35.9,5.000,1,5.000,5.000,5.000,5.000,0.000,cuCtxSynchronize' "$(sed -n 2p "$TMP/out")"
expect_eq "--top 2 rows" 3 "$(wc -l <"$TMP/out" | tr -d ' ')"

# table format: titles, grouped digits, the demangled kernel.
run_report 0 summary -f table "$TMP/parent.ct"
grep -q 'Total Time (ns)' "$TMP/out" || fail "table without nsys titles"
grep -q ' 1,048,576 ' "$TMP/out" || fail "table without grouped digits"
grep -q 'void scale<float>(float\*, float, int)' "$TMP/out" || fail "kernel not demangled in the table"

# usage errors
run_report 1 summary --section bogus "$TMP/parent.ct"
run_report 1 summary --timeunit fortnights "$TMP/parent.ct"
run_report 1 summary
run_report 0 summary --help
grep -q 'Usage: cudatrace-report summary' "$TMP/out" || fail "summary --help"
# The memory command: the device peak (28,672 bytes) is held by the 3 device allocations live then, not by
# the pinned host buffer allocated before it; the pinned buffer is still among the leaks.
run_report 0 memory --format json "$TMP/parent.ct"
py '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["peak"]["bytes"] == 28672, r["peak"]
held = (sum(s["bytes"] for s in r["peak"]["sites"]), sum(s["allocations"] for s in r["peak"]["sites"]))
assert held == (28672, 3), r["peak"]["sites"]
assert r["leak_summary"]["bytes"] == 8192 + 1048576 and r["leak_summary"]["allocations"] == 2, r["leak_summary"]
'
run_report 0 help summary
grep -q -- '--timeunit' "$TMP/out" || fail "help summary"
run_report 0 --version
grep -q 'trace format version 8 (reads versions 1 to 8)' "$TMP/out" || fail "--version"
finish
