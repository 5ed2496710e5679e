#!/bin/sh
# GPU spans when the process ends at once after its work (issue 34): main returning, SIGTERM's default
# action and exec each write every span of the completed work, from CUPTI's records and from timing events.
# A signal handler or exec cannot collect (no lock, no driver call): the writer's thread collects for it.
# Work still running is counted not completed, and so is what no collection could reach (CUPTI stuck).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
prog=$bin/gpu-time
export SIM_STRICT_HANDLES=1
unset CUDATRACE_GPU_TIME CUDATRACE_CUPTI CUDA_INJECTION64_PATH SIM_CUPTI_FLUSH_STALL

info() {
    awk -v k="$2=" '$1 == "gpu-info" { for (i = 2; i <= NF; i++) if (index($i, k) == 1) v = substr($i, length(k) + 1) }
        END { print v }' "$tmp/$1.dump"
}
expect_info() {
    got=$(info "$1" "$2")
    [ "$got" = "$3" ] || fail "$1: gpu-info $2=$got, expected $3 ($(grep '^gpu-info' "$tmp/$1.dump" | tail -1))"
}
# ending NAME STATUS ARGS...: the program ends with STATUS untraced and traced, within 10 s traced.
ending() {
    name=$1 status=$2
    shift 2
    LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$prog" "$@" >"$tmp/$name.plain" 2>&1
    rc=$?
    [ $rc -eq "$status" ] || fail "$name untraced: exit $rc, expected $status ($(cat "$tmp/$name.plain"))"
    start=$(date +%s)
    CUDATRACE_OUTPUT=$tmp/$name.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
        LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        timeout 30 "$prog" "$@" >"$tmp/$name.traced" 2>"$tmp/$name.traced.err"
    rc=$?
    [ $rc -eq "$status" ] || fail "$name traced: exit $rc, expected $status ($(cat "$tmp/$name.traced.err"))"
    [ $(($(date +%s) - start)) -le 10 ] || fail "$name: the traced process took more than 10 s to end"
    [ -s "$tmp/$name.traced" ] && fail "$name: stdout: $(head -c 300 "$tmp/$name.traced")"
    "$ctdump" "$tmp/$name.ctrace" >"$tmp/$name.dump" || fail "$name: ctdump exit $?"
}

for source in activity events; do
    if [ $source = activity ] && ! [ -f "$CT_SIMDRIVER_DIR/libcupti.so.13" ]; then
        echo "activity: skipped (no simulated libcupti)"
        continue
    fi
    export CUDATRACE_GPU_TIME=$source
    # 50 launches completed, then the end: every span written, the counts final.
    for how in exit term exec; do
        status=0
        [ $how = term ] && status=143
        ending $source-$how $status end $how 50
        expect_count $source-$how 50 "^gpu seq=.* name=cuLaunchKernel "
        expect_info $source-$how final 1
        expect_info $source-$how timed 50
        expect_info $source-$how not_completed 0
    done
    # 50 launches queued behind a kernel of 3 s at SIGTERM: every one written or counted not completed.
    ending $source-busy 143 end term 50 busy
    spans=$(grep -c "^gpu seq=.* name=cuLaunchKernel " "$tmp/$source-busy.dump")
    expect_info $source-busy final 1
    expect_info $source-busy timed "$spans"
    expect_info $source-busy not_completed $((51 - spans))
    echo "$source: exit, SIGTERM and exec wrote 50 spans of 50; busy at SIGTERM: $spans written, $((51 - spans)) counted"
done

# CUPTI stuck (a flush that never returns, as behind a lock of the interrupted thread): the writer's thread
# cannot collect for the SIGTERM, which goes on without it after a second, counting the 50 not completed.
if [ -f "$CT_SIMDRIVER_DIR/libcupti.so.13" ]; then
    SIM_CUPTI_FLUSH_STALL=1 CUDATRACE_GPU_TIME=activity ending stuck 143 end term 50
    expect_count stuck 0 "^gpu seq="
    expect_info stuck final 1
    expect_info stuck timed 0
    expect_info stuck not_completed 50
    grep -q '^end ' "$tmp/stuck.dump" || fail "stuck: the trace has no end record"
fi
exit 0
