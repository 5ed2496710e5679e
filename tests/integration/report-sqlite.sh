#!/bin/sh
# export --format sqlite: the three queries of doc/exports.md (read from it, so the doc shows what is tested)
# on the parent and child traces with every row expected; the tables of a call's details, threads,
# processes, strings; GPU spans joined to their calls (report-gen gpu); usage errors; a symlink planted at the
# partial file.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
if ! grep -q '^#define HAVE_SQLITE 1' "$CT_TOP_BUILDDIR/config.h"; then
    run_report 1 export --format sqlite -o "$TMP/t.sqlite" "$TMP/parent.ct"
    grep -q 'built without SQLite' "$TMP/err" || fail "no-SQLite message: $(cat "$TMP/err")"
    echo "SQLite not built in: only its error checked" >&2
    [ "$failures" -eq 0 ] && exit 77
    finish
fi
DB=$TMP/t.sqlite
# sql QUERY: its rows, columns separated by |, through python's sqlite3 (no sqlite3 CLI needed)
sql() {
    "$PY" -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in r))' "$DB" "$1"
}
# doc_query NAME: the query "-- query: NAME" of doc/exports.md
doc_query() {
    "$PY" -c 'import re, sys
doc = open(sys.argv[1]).read()
print(dict(re.findall(r"```sql\n-- query: (\S+)\n(.*?)```", doc, re.S))[sys.argv[2]])' \
        "$CT_TOP_SRCDIR/doc/exports.md" "$1"
}

run_report 0 export --format sqlite -o "$DB" "$TMP/parent.ct" "$TMP/child.ct"
expect_eq "top kernels" 'vecAdd|5|170
void scale<float>(float*, float, int)|1|25' "$(sql "$(doc_query top-kernels)")"
expect_eq "copies by direction" '[CUDA memcpy Device-to-Device]|1|16384
[CUDA memcpy Host-to-Device]|3|10240
[CUDA memset]|1|8192
[CUDA memcpy Device-to-Host]|1|4096' "$(sql "$(doc_query copies-by-direction)")"
# the peak (28672 bytes at the worker's allocation): main's two allocations and the worker's; the pinned
# one is host memory
expect_eq "alive at the peak" '1000|1000|0x7000000000|4096|device|2000|28672
1000|1000|0x7000010000|8192|device|3000|28672
1000|1001|0x7000100000|16384|device|20000|28672' "$(sql "$(doc_query alive-at-peak)")"

# (the child has no driver record: version 0)
expect_eq "processes" '1|1000|1|testhost|./vecadd 3 --fast||13000|0|20|7|2|1
2|2000|1000|testhost|./vecadd child||0|50000|3|0|0|1' \
    "$(sql 'SELECT id, pid, ppid, host, command_line, rank, driver_version, start, calls, lost, untraced, complete FROM processes')"
# ranks: a job's traces (report-gen bigranks) each name theirs
mkdir "$TMP/job" && "$GEN" bigranks 3 10 "$TMP/job" || { echo "report-gen failed" >&2; exit 99; }
run_report 0 export --format sqlite -o "$TMP/job.sqlite" "$TMP/job/rank-00000.ctrace" "$TMP/job/rank-00001.ctrace" \
    "$TMP/job/rank-00002.ctrace"
expect_eq "processes' ranks" '1|0
2|1
3|2' "$(DB=$TMP/job.sqlite sql 'SELECT id, rank FROM processes ORDER BY id')"
expect_eq "threads" '1|1000|main|15
1|1001|worker|5
2|2000||3' "$(sql 'SELECT process_id, tid, name, calls FROM threads ORDER BY process_id, tid')"
expect_eq "devices" '1|0|NVIDIA Test GPU|85899345920|01020300000000000000000000000000' \
    "$(sql 'SELECT * FROM devices')"
# the calls view, in time order; the 16-byte repeat read back as the launch it stands for
expect_eq "calls" '1|1000|1000|1|1000|500|cuInit|cuInit|CUDA_SUCCESS
4|1000|1000|4|4000|50|cuMemAlloc|cuMemAlloc_v2|CUDA_ERROR_OUT_OF_MEMORY
8|1000|1000|8|12000|40|cuLaunchKernel|cuLaunchKernel|CUDA_SUCCESS
10|1000|1000|10|14000|25|cuLaunchKernel_ptsz|cuLaunchKernel_ptsz|CUDA_SUCCESS
23|2000|2000|3|62000|80|cuMemFree|cuMemFree_v2|CUDA_SUCCESS' \
    "$(sql 'SELECT id, pid, tid, seq, start, duration, function, variant, result_name FROM calls WHERE id IN (1, 4, 8, 10, 23)')"
expect_eq "launches" '7|vecAdd|kernel|4|256|0
8|vecAdd|kernel|4|256|0
9|vecAdd|kernel|8|128|0
10|void scale<float>(float*, float, int)|kernel|16|64|0
16|vecAdd|kernel|4|256|0
22|vecAdd|kernel|4|256|0' \
    "$(sql 'SELECT l.call_id, s.value, l.kind, l.grid_x, l.block_x, l.shared_mem FROM launches l JOIN strings s ON s.id = l.kernel_id')"
expect_eq "allocations and frees" '2|4096|device|1|19
3|8192|device|1|
4|1099511627776|device|1|
13|1048576|pinned|0|
14|16384|device|1|18
21|1024|device|1|23' \
    "$(sql 'SELECT a.call_id, a.bytes, a.kind, a.device_memory, f.call_id FROM allocations a LEFT JOIN frees f ON f.allocation_call_id = a.call_id ORDER BY a.call_id')"
expect_eq "copies" '11|[CUDA memset]|8192|unknown|device|set
17|[CUDA memcpy Host-to-Device]|2048|pinned|device|async' \
    "$(sql 'SELECT k.call_id, s.value, k.bytes, k.src_kind, k.dst_kind, k.flags FROM copies k JOIN strings s ON s.id = k.operation_id WHERE k.flags != '"'none'"'')"
expect_eq "memory usage" '2|1|2100|4096
3|1|3300|12288
14|1|20150|28672
18|1|30060|12288
19|1|31070|8192
21|2|60100|1024
23|2|62080|0' "$(sql 'SELECT * FROM memory_usage')"
expect_eq "indexes" 'allocations_address api_calls_function api_calls_thread frees_allocation gpu_spans_call launches_kernel' \
    "$(sql "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name" | tr '\n' ' ' | sed 's/ $//')"

# GPU spans: joined to their calls by seq; a graph and copies named as the GPU tables name them
run_report 0 export --format sqlite -o "$DB" "$TMP/parent.ct" # replaces the file
expect_eq "replaced" 20 "$(sql 'SELECT count(*) FROM api_calls')"
"$GEN" gpu "$TMP/gpu.ct" || exit 99
run_report 0 export --format sqlite -o "$DB" "$TMP/gpu.ct"
expect_eq "gpu spans" '1|1|1200|500|0|0x0|copy|[CUDA memcpy Host-to-Device]
4|4|4100|1000|0|0x10|kernel|kernelA(float*)
5|22|5300|4000|0|0x20|graph|[CUDA graph 0xabc]
24|24|33050|800|1|0x20|copy|[CUDA memcpy Device-to-Host]' \
    "$(sql "SELECT g.call_id, c.seq, g.start, g.duration, g.device, printf('0x%x', g.stream), g.kind, s.value FROM gpu_spans g JOIN api_calls c ON c.id = g.call_id JOIN strings s ON s.id = g.name_id WHERE c.seq IN (1, 4, 22, 24) ORDER BY g.call_id")"
expect_eq "gpu span count" 13 "$(sql 'SELECT count(*) FROM gpu_spans')"
expect_eq "gpu info" 'sample|4|2|1|13|1|2|3|4' "$(sql 'SELECT mode, sample_n, sample_k, final, timed, not_completed, untimed_pool, untimed_refused, untimed_capture FROM gpu_info')"

run_report 1 export --format sqlite "$TMP/parent.ct"
grep -q 'give it with -o FILE' "$TMP/err" || fail "sqlite without -o: $(cat "$TMP/err")"
run_report 4 export --format sqlite -o "$TMP/no/such/dir/t.sqlite" "$TMP/parent.ct"

# The database is written under a name of its own (OUT.partial-PID-N, created exclusively), then renamed: a
# file or symlink at OUT.partial (the user's, or planted by another user in a sticky directory) is neither
# removed nor written through, and nothing of the export is left beside the database.
: >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/planted.sqlite.partial"
echo keep >"$TMP/kept.sqlite.partial"
run_report 0 export --format sqlite -o "$TMP/planted.sqlite" "$TMP/parent.ct"
run_report 0 export --format sqlite -o "$TMP/kept.sqlite" "$TMP/parent.ct"
[ -s "$TMP/victim" ] && fail "planted symlink: the file it points to was written"
[ -L "$TMP/planted.sqlite.partial" ] || fail "planted symlink: removed"
[ "$(cat "$TMP/kept.sqlite.partial")" = keep ] || fail "the user's OUT.partial was changed"
expect_eq "planted: a database" 1 "$(sqlite3 "$TMP/planted.sqlite" 'SELECT count(*) FROM processes')"
set -- "$TMP"/*.partial-*
[ -e "$1" ] && fail "left behind: $*"
# An output that is not a regular file (a symlink, a FIFO, a device) is refused, and left as it was: rename
# would replace it by the database.
ln -s "$TMP/victim" "$TMP/link.sqlite"
run_report 4 export --format sqlite -o "$TMP/link.sqlite" "$TMP/parent.ct"
grep -q "link.sqlite is not a regular file" "$TMP/err" || fail "symlink output: $(cat "$TMP/err")"
[ -L "$TMP/link.sqlite" ] && [ ! -s "$TMP/victim" ] || fail "symlink output: replaced or written through"
mkfifo "$TMP/fifo.sqlite"
run_report 4 export --format sqlite -o "$TMP/fifo.sqlite" "$TMP/parent.ct"
[ -p "$TMP/fifo.sqlite" ] || fail "FIFO output: replaced"
set -- "$TMP"/*.partial-*
[ -e "$1" ] && fail "left behind after a refusal: $*"
finish
