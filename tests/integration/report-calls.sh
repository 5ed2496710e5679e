#!/bin/sh
# cudatrace-report calls: time order across threads and files, decoded arguments, the filters.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

run_report 0 calls -f json "$TMP/parent.ct" "$TMP/child.ct"
py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 23, len(rows)
starts = [r["start"] for r in rows]
assert starts == sorted(starts), starts
# the worker allocates at 20000, the main thread frees at 30000, although the file holds the free first
order = [(r["start"], r["tid"], r["name"]) for r in rows]
assert order.index((20000, 1001, "cuMemAlloc")) < order.index((30000, 1000, "cuMemFree")), order
assert [r["pid"] for r in rows[-3:]] == [2000] * 3
# each call names its thread, as Thread Name does in the other formats ("" when unnamed)
assert {(r["tid"], r["thread_name"]) for r in rows if r["pid"] == 1000} == {(1000, "main"), (1001, "worker")}, rows
a = rows[1]
assert (a["name"], a["variant"], a["duration"], a["args"]["bytes"], a["args"]["address"], a["args"]["kind"]) == \
    ("cuMemAlloc", "cuMemAlloc_v2", 100, 4096, "0x7000000000", "device"), a
oom = [r for r in rows if r["result"] != 0]
assert len(oom) == 1 and oom[0]["result_name"] == "CUDA_ERROR_OUT_OF_MEMORY", oom
l = [r for r in rows if r["name"] == "cuLaunchKernel_ptsz"][0]
assert l["args"]["kernel"] == "void scale<float>(float*, float, int)" and l["args"]["grid"] == "16,1,1" \
    and l["args"]["block"] == "64,1,1" and l["variant"] == "cuLaunchKernel_ptsz", l
c = [r for r in rows if r["name"] == "cuMemcpyDtoH"][0]
assert c["args"]["operation"] == "[CUDA memcpy Device-to-Host]" and c["args"]["bytes"] == 4096, c
'

# --api glob (display name or variant)
run_report 0 calls -f csv --api 'cuMemcpy*' "$TMP/parent.ct"
expect_eq "--api cuMemcpy* rows" 5 "$(tail -n +2 "$TMP/out" | wc -l | tr -d ' ')"
expect_eq "--api csv header" 'Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,Thread Name,Variant,Result Name,GPU Start (ns),GPU Duration (ns),Arguments' "$(head -n 1 "$TMP/out")"
run_report 0 calls -f csv --api '*_ptsz' "$TMP/parent.ct"
expect_eq "--api *_ptsz rows" 1 "$(tail -n +2 "$TMP/out" | wc -l | tr -d ' ')"
run_report 0 calls -f csv --api cuMemAlloc_v2 "$TMP/parent.ct"
expect_eq "--api by variant" 4 "$(tail -n +2 "$TMP/out" | wc -l | tr -d ' ')"
# --tid
run_report 0 calls -f csv --tid 1001 "$TMP/parent.ct"
expect_eq "--tid 1001 rows" 5 "$(tail -n +2 "$TMP/out" | cut -d, -f7 | grep -c '^1001$')"
expect_eq "--tid 1001 only" 5 "$(tail -n +2 "$TMP/out" | wc -l | tr -d ' ')"
# --from/--to, with units
run_report 0 calls -f csv --from 10us --to 16000 "$TMP/parent.ct"
expect_eq "--from/--to starts" '11000 12000 13000 14000 15000 16000' "$(tail -n +2 "$TMP/out" | cut -d, -f1 | paste -sd' ' -)"
run_report 0 calls -f csv --timeunit us --from 0.03ms "$TMP/parent.ct"
expect_eq "--timeunit us starts" '30.000 31.000 32.000' "$(tail -n +2 "$TMP/out" | cut -d, -f1 | paste -sd' ' -)"
# --errors
run_report 0 calls -f csv --errors "$TMP/parent.ct" "$TMP/child.ct"
expect_eq "--errors" '4000,50,cuMemAlloc,2,4,1000,1000,main,cuMemAlloc_v2,CUDA_ERROR_OUT_OF_MEMORY,,,bytes=1099511627776 address=0x0 kind=device device=0' "$(tail -n +2 "$TMP/out")"
# combined filters, table format
run_report 0 calls -f table --api cuLaunchKernel --tid 1000 "$TMP/parent.ct"
expect_eq "table rows" 4 "$(wc -l <"$TMP/out" | tr -d ' ')"
grep -q 'kernel=vecAdd kind=kernel grid=8,1,1 block=128,1,1' "$TMP/out" || fail "table arguments: $(cat "$TMP/out")"
# usage errors
run_report 1 calls --from soon "$TMP/parent.ct"
run_report 1 calls --from 20us --to 10us "$TMP/parent.ct"
grep -q -- '--to is before --from' "$TMP/err" || fail "--to before --from: $(cat "$TMP/err")"
run_report 1 calls --tid -3 "$TMP/parent.ct"
# numbers that are no time or id: NaN (which compares false with any bound), infinities, overflow, signs
for opt in --from --to; do
    for bad in nan NaN -nan nanms inf -inf 1e400 1e19 -1 ' -1' ''; do
        run_report 1 calls "$opt=$bad" "$TMP/parent.ct"
        grep -q -- "$opt wants a time" "$TMP/err" || fail "$opt=$bad: message: $(cat "$TMP/err")"
        [ -s "$TMP/out" ] && fail "$opt=$bad: printed calls"
    done
done
for bad in 4294967296 18446744073709551616 ' -1' ' 5' '+5' 1e3 nan; do
    run_report 1 calls --tid "$bad" "$TMP/parent.ct"
    run_report 1 calls --pid "$bad" "$TMP/parent.ct"
    [ "$bad" = 4294967296 ] || run_report 1 summary --top "$bad" "$TMP/parent.ct"
done
run_report 0 calls --tid 4294967295 "$TMP/parent.ct"
run_report 0 calls --help
grep -q -- '--errors' "$TMP/out" || fail "calls --help"
finish
