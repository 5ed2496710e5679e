#!/bin/sh
# Ranks: four simulated-driver processes of a "job" (RANK/WORLD_SIZE as torchrun sets them; one rank through
# Open MPI's variable instead), each trace keeping its rank, world size and host.  The report merges them,
# says which ranks it holds, and with --by rank gives each rank's tables and a spread table naming the
# slowest rank (rank 2 launches the most, its launch loop runs twice, and each of its launches takes the host
# 20 us: SIM_LAUNCH_NS, so that a launch of another rank delayed on a busy machine cannot outweigh them).  Chrome names each process
# "rank N (host, pid)".
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$CT_TOP_BUILDDIR/tests/samples/launch_repeat_drv
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report

job() { # job RANK VAR...: one rank's run
    r=$1
    shift
    env "$@" CUDATRACE_OUTPUT="$tmp/rank$r.ctrace" LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" \
        LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" "$prog" >/dev/null 2>"$tmp/rank$r.err" ||
        fail "rank $r: exit $? ($(cat "$tmp/rank$r.err"))"
}
job 0 RANK=0 LOCAL_RANK=0 WORLD_SIZE=4
job 1 RANK=1 LOCAL_RANK=1 WORLD_SIZE=4
job 2 RANK=2 LOCAL_RANK=0 WORLD_SIZE=4 SIM_LAUNCH_NS=20000
env RANK=2 SIM_LAUNCH_NS=20000 CUDATRACE_OUTPUT="$tmp/rank2b.ctrace" LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" \
    LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD" "$prog" >/dev/null 2>&1 ||
    fail "rank 2's second process"
job 3 OMPI_COMM_WORLD_RANK=3 OMPI_COMM_WORLD_SIZE=4
"$ctdump" "$tmp/rank3.ctrace" | grep -q '^rank rank=3 local_rank=-1 world_size=4 source=OMPI_COMM_WORLD_RANK$' ||
    fail "rank record from Open MPI's variables: $("$ctdump" "$tmp/rank3.ctrace" | grep '^rank')"
"$ctdump" "$tmp/rank1.ctrace" | grep -q '^rank rank=1 local_rank=1 world_size=4 source=RANK$' || fail "rank 1's record"
files="$tmp/rank0.ctrace $tmp/rank1.ctrace $tmp/rank2.ctrace $tmp/rank2b.ctrace $tmp/rank3.ctrace"

# Merged: the header names the ranks.
# shellcheck disable=SC2086
"$report" summary -f csv -s header,api $files >"$tmp/all.csv" || fail "summary exit $?"
grep -q '^Ranks,"0, 1, 2, 3"$' "$tmp/all.csv" || fail "header ranks: $(grep Ranks "$tmp/all.csv")"
# The ranks in order, whatever the order of the files.
"$report" summary -f csv -s header "$tmp/rank3.ctrace" "$tmp/rank2.ctrace" "$tmp/rank0.ctrace" "$tmp/rank1.ctrace" |
    grep -q '^Ranks,"0, 1, 2, 3"$' || fail "header ranks of files in another order"
grep -q ',2250,.*,cuLaunchKernel$' "$tmp/all.csv" || fail "merged launches: $(grep cuLaunchKernel "$tmp/all.csv")"

# --by rank: a table per rank, rank 2's of two processes, and the spread.
# shellcheck disable=SC2086
"$report" summary -f json --by rank $files >"$tmp/by.json" || fail "summary --by rank exit $?"
"$CT_PYTHON3" - "$tmp/by.json" <<'PY' || fail "--by rank"
import json, sys
d = json.load(open(sys.argv[1]))
api = {k: v for k, v in d.items() if k.startswith("api[")}
assert len(api) == 4 and all(k.startswith("api[rank %d (" % r) for r, k in enumerate(sorted(api))), list(api)
launches = {k[4:10]: next(r["Num Calls"] for r in v if r["Name"] == "cuLaunchKernel") for k, v in api.items()}
assert launches == {"rank 0": 450, "rank 1": 450, "rank 2": 900, "rank 3": 450}, launches
assert len([k for k in d if k.startswith("kernels[")]) == 4
sp = {(r["Kind"], r["Name"]): r for r in d["spread"]}
row = sp[("api", "cuLaunchKernel")]
assert row["Groups"] == 4 and row["Slowest"].startswith("rank 2 ("), row
assert row["Min Total (ns)"] <= row["Med Total (ns)"] <= row["Max Total (ns)"], row
assert ("kernel (host)", "kernelA") in sp, sorted(sp)
PY
# shellcheck disable=SC2086
"$report" summary -f csv --by pid $files | grep -c '^# api\[' | grep -qx 5 || fail "--by pid: not one api table per process"
# shellcheck disable=SC2086
"$report" summary -f csv --by host $files | grep -c '^# api\[' | grep -qx 1 || fail "--by host: not one api table"
"$report" summary --by node "$tmp/rank0.ctrace" 2>/dev/null && fail "--by node accepted"

# Chrome: processes named by rank.
# shellcheck disable=SC2086
"$report" export --format chrome -o "$tmp/t.json" $files || fail "export exit $?"
host=$(hostname)
"$CT_PYTHON3" - "$tmp/t.json" "$host" <<'PY' || fail "chrome process names"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = sorted(e["args"]["name"] for e in ev if e.get("name") == "process_name" and e["pid"] < 1000000000)
assert len(names) == 5 and all(n.startswith("rank ") and (" (%s, " % sys.argv[2]) in n for n in names), names
PY
# info: several files, each with its rank.
# shellcheck disable=SC2086
"$report" info -f csv $files >"$tmp/info.csv" || fail "info of several files"
[ "$(grep -c '^Rank,' "$tmp/info.csv")" = 5 ] || fail "info ranks: $(grep '^Rank' "$tmp/info.csv")"
grep -q "^# file\[$tmp/rank3.ctrace\]\$" "$tmp/info.csv" || fail "info of several files: keys"
# A trace without its END record (the process killed): every command but info warns, summary's header names
# it, memory --error-exitcode still reports leaks (the samples free everything: none here).
head -c -40 "$tmp/rank0.ctrace" >"$tmp/killed.ctrace"
"$ctdump" "$tmp/killed.ctrace" | grep -q '^end ' && fail "the cut trace still has its END record"
"$report" summary -f csv -s header "$tmp/killed.ctrace" >"$tmp/killed.csv" 2>"$tmp/killed.err" || fail "summary of a killed process"
grep -q "^cudatrace-report: warning: $tmp/killed.ctrace is incomplete (no END record" "$tmp/killed.err" ||
    fail "no warning for a trace without END: $(cat "$tmp/killed.err")"
grep -q "^\"Incomplete (no END record: killed, crashed or _exit)\",$tmp/killed.ctrace\$" "$tmp/killed.csv" ||
    fail "header of a trace without END: $(cat "$tmp/killed.csv")"
"$report" calls -f csv "$tmp/killed.ctrace" 2>&1 >/dev/null | grep -q 'is incomplete' || fail "calls: no warning"
"$report" info -f csv "$tmp/killed.ctrace" 2>&1 >/dev/null | grep -q . && fail "info warns on stderr"
"$report" summary -f csv -s header "$tmp/rank1.ctrace" 2>&1 >/dev/null | grep -q . && fail "a complete trace warns"
"$report" memory -f csv --error-exitcode 9 "$tmp/rank1.ctrace" >/dev/null || fail "memory --error-exitcode without leaks"
exit 0
