#!/bin/sh
# A signal handler's driver calls interrupting traced calls on the same thread (10,000 signals): the trace
# stays readable, and every call is recorded, counted or counted lost (made = recorded + counted + lost).
# Every function timed (CUDATRACE_APIS=all), so that the handler's queries are recorded, with call stacks
# off, on allocations (the default) and on every call (the stack table's lock must never be waited on by
# the thread that holds it: bounded by a timeout); then with the default set, where the handler's queries
# and two of the loop's are counted, not timed.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report

for run in none alloc all default-set; do
    case $run in
    default-set) stacks=alloc apis= ;;
    *) stacks=$run apis=all ;;
    esac
    CUDATRACE_OUTPUT=$tmp/$run.ctrace CUDATRACE_STACKS=$stacks CUDATRACE_APIS=$apis LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
        LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        timeout 120 "$bin/interpose-signals" 10000 "$tmp/$run.made" >"$tmp/$run.out" 2>"$tmp/$run.err"
    rc=$?
    [ $rc -eq 124 ] && fail "$run: hung (killed after 120 s)"
    [ $rc -eq 0 ] || fail "$run: exit $rc ($(cat "$tmp/$run.err"))"
    [ "$(cat "$tmp/$run.out")" = "interpose-signals: PASSED" ] || fail "$run: output $(cat "$tmp/$run.out")"
    "$ctdump" "$tmp/$run.ctrace" >"$tmp/$run.dump" || fail "$run: ctdump exit $?"
    "$report" summary "$tmp/$run.ctrace" >/dev/null 2>"$tmp/$run.rerr" ||
        fail "$run: cudatrace-report summary exit $? ($(cat "$tmp/$run.rerr"))"
    read -r made by_handler <"$tmp/$run.made"
    recorded=$(grep -c -E '^(call|launch-repeat|launch-short) ' "$tmp/$run.dump")
    lost=$(sed -n 's/^lost count=\([0-9]*\) .*/\1/p' "$tmp/$run.dump" | awk '{ s += $1 } END { print s + 0 }')
    # Each variant's last CT_REC_COUNTED holds its total.
    counted=$(sed -n 's/^counted api=\([^ ]*\) count=\([0-9]*\)$/\1 \2/p' "$tmp/$run.dump" |
        awk '{ c[$1] = $2 } END { for (a in c) t += c[a]; print t + 0 }')
    [ "$((recorded + counted + lost))" -eq "$made" ] ||
        fail "$run: made $made calls, recorded $recorded + counted $counted + lost $lost = $((recorded + counted + lost))"
    [ "$run" = default-set ] && [ "$counted" -lt "$by_handler" ] && fail "$run: only $counted calls counted"
    grep -q "^end calls=$recorded lost=$lost " "$tmp/$run.dump" || fail "$run: end record $(grep '^end' "$tmp/$run.dump")"
    expect_handler=20000 # 10,000 signals, two calls each
    [ "$by_handler" -eq "$expect_handler" ] || fail "$run: the handler made $by_handler calls, not $expect_handler"
    echo "$run: made $made, recorded $recorded, counted $counted, lost $lost ($(grep -c 'reason=nested' "$tmp/$run.dump") nested records)"
done

# Two runs under libmallocmasked, which counts the tracer's calls into glibc's allocator on the program's
# threads (there must be none: src/recorder/alloc.h).  fork: the handler also forks (300 times): the
# tracer's fork handlers never wait on a lock that the interrupted thread, or a thread waiting on it, holds;
# every child exits 0.  churn: call stacks on every call, and the loop mallocs between its calls, so that
# the handler's calls (each a new stack, which the tracer stores) interrupt glibc's allocator.  Every
# function timed, so that each call is recorded or counted lost.
masked=$CT_TOP_BUILDDIR/tests/integration/.libs/libmallocmasked.so
[ -e "$masked" ] || fail "$masked is missing (build with make check)"
preload=$CT_PRELOAD
[ -z "${CT_TEST_PRELOAD_PREFIX:-}" ] && preload=$masked:$CT_PRELOAD # a sanitizer's runtime has its own malloc
# churn only in a plain build: a sanitizer build keeps glibc's allocator for the tracer, on purpose, so that
# the sanitizer checks the tracer's blocks (src/recorder/alloc.h), and there a handler's call can wait on it.
# fork-events: as fork, GPU time from timing events, whose pairs the tracer makes inside the program's calls:
# the driver's cuEventCreate allocates (the simulated driver counts each call made with a signal open, and
# the program makes none of its own), so the tracer must make every one with signals blocked.
# fork-events-short: the same with one signal, so that the program destroys its context before the writer
# first collects: the pool's anchor events are then made on the program's thread, inside cuCtxDestroy.
runs="fork fork-events fork-events-short churn"
[ -n "${CT_TEST_PRELOAD_PREFIX:-}" ] && runs="fork fork-events fork-events-short"
for run in $runs; do
    gpu=auto arg=$run
    case $run in
    fork) n=300 stacks=alloc ;;
    fork-events) n=300 stacks=alloc gpu=events arg=fork ;;
    fork-events-short) n=1 stacks=alloc gpu=events arg=fork ;;
    churn) n=3000 stacks=all ;;
    esac
    # env after timeout: timeout itself, preloaded, would write its own count (none) over the program's.
    timeout 120 env MALLOC_MASKED_OUT="$tmp/$run.masked" CUDATRACE_OUTPUT="$tmp/$run.ctrace" CUDATRACE_APIS=all \
        CUDATRACE_STACKS=$stacks CUDATRACE_GPU_TIME=$gpu SIM_CALL_COUNTS="$tmp/$run.counts" \
        LD_LIBRARY_PATH="$CT_SIMDRIVER_DIR" LD_PRELOAD="${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$preload" \
        "$bin/interpose-signals" $n "$tmp/$run.made" $arg >"$tmp/$run.out" 2>"$tmp/$run.err"
    rc=$?
    [ $rc -eq 124 ] && fail "$run: hung (killed after 120 s)"
    [ $rc -eq 0 ] || fail "$run: exit $rc ($(head -c 300 "$tmp/$run.err"))"
    [ "$(cat "$tmp/$run.out")" = "interpose-signals: PASSED" ] || fail "$run: output $(cat "$tmp/$run.out")"
    "$ctdump" "$tmp/$run.ctrace" >"$tmp/$run.dump" || fail "$run: ctdump exit $?"
    read -r made by_handler <"$tmp/$run.made"
    [ "$by_handler" -eq $((2 * n)) ] || fail "$run: the handler made $by_handler calls, not $((2 * n))"
    recorded=$(grep -c -E '^(call|launch-repeat|launch-short) ' "$tmp/$run.dump")
    lost=$(sed -n 's/^lost count=\([0-9]*\) .*/\1/p' "$tmp/$run.dump" | awk '{ s += $1 } END { print s + 0 }')
    [ "$((recorded + lost))" -eq "$made" ] || fail "$run: made $made calls, recorded $recorded + lost $lost"
    if [ -z "${CT_TEST_PRELOAD_PREFIX:-}" ]; then
        read -r heap first <"$tmp/$run.masked" || fail "$run: libmallocmasked wrote no count"
        [ "$heap" -eq 0 ] || fail "$run: the tracer called glibc's allocator $heap times on a program thread (first in $first)"
    fi
    if [ "$run" != "${run#fork-events}" ]; then
        created=$(awk '$1 == "cuEventCreate" { print $2 }' "$tmp/$run.counts")
        [ "${created:-0}" -gt 0 ] || fail "$run: the tracer created no timing event ($(tr '\n' ' ' <"$tmp/$run.counts"))"
        open=$(awk '$1 == "cuEventCreate_signals_open" { print $2 }' "$tmp/$run.counts")
        [ -z "$open" ] || fail "$run: $open of $created cuEventCreate calls made with signals open"
    fi
    echo "$run: $n signals, made $made, recorded $recorded, lost $lost"
done
