#!/bin/sh
# python/cudatrace-dask: the partials of trace files made on a Dask cluster's workers and merged here print
# byte for byte what cudatrace-report summary of the files prints, on a 2-worker LocalCluster (paths, HOST:PATH,
# a glob evaluated on the workers, --by rank) and on a scheduler started apart (dask-scheduler, dask-worker)
# given by its address; with --command analyze, what analyze of the files prints (its map's options passed
# to the workers).  Needs Python's `distributed` (Debian python3-distributed, installed by
# scripts/setup-deps); skips without it.
. "$(dirname "$0")/report-lib.sh"

DASK=$CT_TOP_SRCDIR/python/cudatrace-dask
DPY=
for p in "$PY" /usr/bin/python3 python3; do
    if "$p" -c 'import distributed' 2>/dev/null; then DPY=$p; break; fi
done
[ -n "$DPY" ] || { echo "no Python with the module distributed: skipped" >&2; exit 77; }

"$GEN" gpu "$TMP/gpu.ct" && mkdir "$TMP/job" "$TMP/big" && "$GEN" files 5 "$TMP/job" &&
    "$GEN" bigranks 2 5000 "$TMP/big" || { echo "report-gen failed" >&2; exit 99; }

# same_as_summary WHAT DASK-ARGS... -- SUMMARY-OPTIONS... -- FILES...: the recipe's output and exit status equal
# those of cudatrace-report $CMD (summary unless set) SUMMARY-OPTIONS FILES
same_as_summary() {
    what=$1
    cmd=${CMD:-summary}
    shift
    dargs=
    while [ "$1" != -- ]; do dargs="$dargs $1"; shift; done
    shift
    sargs=
    while [ "$1" != -- ]; do sargs="$sargs $1"; shift; done
    shift
    # shellcheck disable=SC2086
    "$REPORT" "$cmd" $sargs "$@" >"$TMP/want" 2>/dev/null
    want_rc=$?
    # shellcheck disable=SC2086
    timeout 120 "$DPY" "$DASK" --report "$REPORT" $dargs "$@" -- $sargs >"$TMP/got" 2>"$TMP/err"
    rc=$?
    expect_eq "$what: exit status (stderr: $(tail -3 "$TMP/err"))" "$want_rc" "$rc"
    [ -s "$TMP/want" ] || fail "$what: no output from the summary"
    cmp -s "$TMP/want" "$TMP/got" || fail "$what: differs from the summary: $(diff "$TMP/want" "$TMP/got" | head -5)"
}

files="$TMP/job/rank-00000.ctrace $TMP/job/rank-00001.ctrace $TMP/job/rank-00002.ctrace $TMP/job/rank-00003.ctrace $TMP/job/rank-00004.ctrace $TMP/parent.ct $TMP/child.ct $TMP/gpu.ct $TMP/big/rank-00000.ctrace $TMP/big/rank-00001.ctrace"
# shellcheck disable=SC2086
same_as_summary "LocalCluster, csv" --local 2 -- -f csv -- $files
# shellcheck disable=SC2086
same_as_summary "LocalCluster, --by rank, json" --local 2 -- -f json --by rank -- $files
# analyze: the workers make analyze partials (with the map's options given), analyze merges them
# shellcheck disable=SC2086
CMD=analyze same_as_summary "LocalCluster, analyze, json" --local 2 --command analyze -- -f json -- $files
# shellcheck disable=SC2086
# (--warm: an abbreviation, as getopt_long takes it, passed to the workers whole)
CMD=analyze same_as_summary "LocalCluster, analyze, options" --local 2 --command analyze -- -f csv --warm 20 \
    --idle-gap=500us -g python --top 1 --min-repeats 3 -- $files

# A glob evaluated on the workers' host, and HOST:PATH, give the files' summary in the same order.
host=$("$DPY" -c 'import socket; print(socket.gethostname())')
"$REPORT" summary -f csv "$TMP"/job/rank-*.ctrace "$TMP/parent.ct" >"$TMP/want" 2>/dev/null
timeout 120 "$DPY" "$DASK" --report "$REPORT" --local 2 "$TMP/job/rank-*.ctrace" "$host:$TMP/parent.ct" -- -f csv \
    >"$TMP/got" 2>"$TMP/err"
expect_eq "glob and HOST:PATH: exit status ($(tail -3 "$TMP/err"))" 0 "$?"
cmp -s "$TMP/want" "$TMP/got" || fail "glob and HOST:PATH: $(diff "$TMP/want" "$TMP/got" | head -5)"

# A missing file: the partial's exit status (2), its message.
timeout 120 "$DPY" "$DASK" --report "$REPORT" --local 2 "$TMP/nosuchfile.ct" >"$TMP/got" 2>"$TMP/err"
expect_eq "a missing file: exit status" 2 "$?"
grep -q "nosuchfile.ct" "$TMP/err" || fail "a missing file: $(cat "$TMP/err")"

# A scheduler of its own, two workers, the recipe given its address (as on a cluster: doc/dask.md).
# exec: started with &, the function's subshell becomes the command, so that $! is what the kill below stops
# (a subshell killed left the scheduler and workers running, and every later test slower).
sched_cmd() { exec "$DPY" -c 'import sys; from distributed.cli.dask_scheduler import main; sys.argv[0] = "dask-scheduler"; sys.exit(main())' "$@"; }
worker_cmd() { exec "$DPY" -c 'import sys; from distributed.cli.dask_worker import main; sys.argv[0] = "dask-worker"; sys.exit(main())' "$@"; }
sched_cmd --host 127.0.0.1 --port 0 --no-dashboard --scheduler-file "$TMP/sched.json" >"$TMP/sched.log" 2>&1 &
spid=$!
i=0
while [ ! -s "$TMP/sched.json" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
worker_cmd --scheduler-file "$TMP/sched.json" --nworkers 2 --nthreads 1 --no-dashboard >"$TMP/workers.log" 2>&1 &
wpid=$!
addr=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["address"])' "$TMP/sched.json" 2>/dev/null)
[ -n "$addr" ] || fail "dask-scheduler did not start: $(tail -5 "$TMP/sched.log")"
i=0 # the workers registered
until "$DPY" -c 'import sys; from distributed import Client; c = Client(sys.argv[1], timeout=5); sys.exit(len(c.scheduler_info()["workers"]) < 2)' "$addr" 2>/dev/null || [ $i -ge 60 ]; do
    sleep 0.5
    i=$((i + 1))
done
# shellcheck disable=SC2086
same_as_summary "scheduler address, csv" --scheduler "$addr" -- -f csv -- $files
# shellcheck disable=SC2086
same_as_summary "scheduler file, --by host" --scheduler "$TMP/sched.json" -- -f csv --by host -- $files
kill "$wpid" "$spid" 2>/dev/null
wait "$wpid" "$spid" 2>/dev/null
finish
