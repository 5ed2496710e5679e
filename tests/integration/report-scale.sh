#!/bin/sh
# What a job of many threads, ranks or kernels brings: 200,000 thread ids in one trace, 1,000 trace files
# and 100,000 distinct kernel names are summarized within a memory limit (address space, ulimit -v) and a
# generous time bound; a table not asked for costs nothing.  The limits are off for a sanitized build,
# whose runtime reserves address space of its own.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

if [ -n "${CT_SANITIZED:-}" ] || grep -aq '__asan_init\|__tsan_init\|__msan_init' "$REPORT"; then
    limit() { shift; "$@"; }
else
    limit() { (ulimit -v "$1" && shift && exec "$@"); }
fi
# bounded KIB SECONDS WHAT REPORT-ARGS...: the report within KIB of address space and SECONDS, exit 0, its
# output in $TMP/out
bounded() {
    kib=$1 secs=$2 what=$3
    shift 3
    limit "$kib" timeout "$secs" "$REPORT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 0 ] || fail "$what: exit $rc (124: too slow): $(cat "$TMP/err")"
}

"$GEN" threads 200000 "$TMP/threads.ct" || { echo "report-gen failed" >&2; exit 99; }
bounded 524288 60 "200000 threads within 512 MiB" summary -f json "$TMP/threads.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["header"]["Calls recorded"] == 200000, d["header"]
assert {r["Name"]: r["Num Calls"] for r in d["api"]} == {"cuCtxSynchronize": 187500, "cuLaunchKernel": 12500}, d["api"]
'

mkdir "$TMP/job"
"$GEN" files 1000 "$TMP/job" || { echo "report-gen failed" >&2; exit 99; }
bounded 65536 60 "1000 files within 64 MiB" summary -f json "$TMP"/job/rank-*.ctrace
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["header"]["Calls recorded"] == 128000, d["header"]
assert {r["Name"]: r["Num Calls"] for r in d["api"]} == {"cuMemAlloc": 32000, "cuMemcpyHtoD": 32000,
                                                      "cuLaunchKernel": 32000, "cuMemFree": 32000}, d["api"]
'
bounded 65536 60 "calls of 1000 files within 64 MiB" calls -f csv "$TMP"/job/rank-*.ctrace
[ "$(wc -l <"$TMP/out")" = 128001 ] || fail "calls of 1000 files: $(wc -l <"$TMP/out") lines, expected 128001"

# A row per kernel name, in the host and the GPU tables: a few hundred bytes each, not kilobytes.
"$GEN" kernels 100000 "$TMP/kernels.ct" || { echo "report-gen failed" >&2; exit 99; }
bounded 393216 120 "100000 kernel names within 384 MiB" summary -f json "$TMP/kernels.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["kernels"]) == 100000 and len(d["gpu_kernels"]) == 100000, (len(d["kernels"]), len(d["gpu_kernels"]))
assert d["kernels"][0]["Name"] == "void kernel_00000049<128, 4>(float const*, float*, int)", d["kernels"][0]
assert sum(r["Instances"] for r in d["gpu_kernels"]) == 100000
'
bounded 65536 60 "100000 kernel names, api table only, within 64 MiB" summary -f json --section api "$TMP/kernels.ct"
py '
import json, sys
assert json.load(open(sys.argv[1]))["api"][0]["Num Calls"] == 100000
'

# Each file needs a descriptor: too few is a clear error, not a crash or a short report.
(ulimit -n 40 && exec "$REPORT" summary "$TMP"/job/rank-00*.ctrace) >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 2 ] && grep -q 'ulimit -n' "$TMP/err" || fail "too few descriptors: exit $rc: $(cat "$TMP/err")"
finish
