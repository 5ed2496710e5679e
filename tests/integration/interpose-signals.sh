#!/bin/sh
# A signal handler's driver calls interrupting traced calls on the same thread (10,000 signals): the trace
# stays readable, and every call is recorded or counted lost (made = recorded + lost), with call stacks
# off, on allocations (the default) and on every call (the stack table's lock must never be waited on by
# the thread that holds it: bounded by a timeout).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report

for stacks in none alloc all; do
    CUDATRACE_OUTPUT=$tmp/$stacks.ctrace CUDATRACE_STACKS=$stacks LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
        LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        timeout 120 "$bin/interpose-signals" 10000 "$tmp/$stacks.made" >"$tmp/$stacks.out" 2>"$tmp/$stacks.err"
    rc=$?
    [ $rc -eq 124 ] && fail "stacks=$stacks: hung (killed after 120 s)"
    [ $rc -eq 0 ] || fail "stacks=$stacks: exit $rc ($(cat "$tmp/$stacks.err"))"
    [ "$(cat "$tmp/$stacks.out")" = "interpose-signals: PASSED" ] || fail "stacks=$stacks: output $(cat "$tmp/$stacks.out")"
    "$ctdump" "$tmp/$stacks.ctrace" >"$tmp/$stacks.dump" || fail "stacks=$stacks: ctdump exit $?"
    "$report" summary "$tmp/$stacks.ctrace" >/dev/null 2>"$tmp/$stacks.rerr" ||
        fail "stacks=$stacks: cudatrace-report summary exit $? ($(cat "$tmp/$stacks.rerr"))"
    read -r made by_handler <"$tmp/$stacks.made"
    recorded=$(grep -c -E '^(call|launch-repeat|launch-short) ' "$tmp/$stacks.dump")
    lost=$(sed -n 's/^lost count=\([0-9]*\) .*/\1/p' "$tmp/$stacks.dump" | awk '{ s += $1 } END { print s + 0 }')
    [ "$((recorded + lost))" -eq "$made" ] ||
        fail "stacks=$stacks: made $made calls, recorded $recorded + lost $lost = $((recorded + lost))"
    grep -q "^end calls=$recorded lost=$lost " "$tmp/$stacks.dump" || fail "stacks=$stacks: end record $(grep '^end' "$tmp/$stacks.dump")"
    expect_handler=20000 # 10,000 signals, two calls each
    [ "$by_handler" -eq "$expect_handler" ] || fail "stacks=$stacks: the handler made $by_handler calls, not $expect_handler"
    echo "stacks=$stacks: made $made, recorded $recorded, lost $lost ($(grep -c 'reason=nested' "$tmp/$stacks.dump") nested records)"
done

# fork in the handler (300 times): the tracer's fork handlers never wait on a lock that the interrupted
# thread, or a thread waiting on it, holds; every child exits 0.
CUDATRACE_OUTPUT=$tmp/fork.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
    LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
    timeout 120 "$bin/interpose-signals" 300 "$tmp/fork.made" fork >"$tmp/fork.out" 2>"$tmp/fork.err"
rc=$?
[ $rc -eq 124 ] && fail "fork: hung (killed after 120 s)"
[ $rc -eq 0 ] || fail "fork: exit $rc ($(head -c 300 "$tmp/fork.err"))"
[ "$(cat "$tmp/fork.out")" = "interpose-signals: PASSED" ] || fail "fork: output $(cat "$tmp/fork.out")"
"$ctdump" "$tmp/fork.ctrace" >"$tmp/fork.dump" || fail "fork: ctdump exit $?"
read -r made by_handler <"$tmp/fork.made"
recorded=$(grep -c -E '^(call|launch-repeat|launch-short) ' "$tmp/fork.dump")
lost=$(sed -n 's/^lost count=\([0-9]*\) .*/\1/p' "$tmp/fork.dump" | awk '{ s += $1 } END { print s + 0 }')
[ "$((recorded + lost))" -eq "$made" ] || fail "fork: made $made calls, recorded $recorded + lost $lost"
echo "fork: 300 forks from the handler, made $made, recorded $recorded, lost $lost"
