#!/bin/sh
# A program that puts a file of its own on the trace's descriptor number, 300 times 1 ms apart (dup2, dup3,
# close and close_range, then F_DUPFD onto the number), while a thread makes driver calls, with the writer
# draining every millisecond: the program's file holds only what the program wrote, and the trace is whole
# (read to its END record, every call made recorded or counted lost).  Twice, then with closefrom instead of
# close_range (no number above the range to move to: the trace is reopened by name, with one message each
# time).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"

seq 0 299 >"$tmp/expected"
LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$bin/interpose-fds" steal 300 "$tmp/plain.mine" "$tmp/plain.made" ||
    fail "untraced: exit $?"
cmp -s "$tmp/expected" "$tmp/plain.mine" || fail "untraced: the program's file is not what it wrote"

for run in 1 2 closefrom; do
    extra=
    [ $run = closefrom ] && extra=closefrom
    CUDATRACE_OUTPUT=$tmp/$run.ctrace CUDATRACE_QUIET=1 CUDATRACE_APIS=all CUDATRACE_FLUSH_MS=1 LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
        LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
        timeout 120 "$bin/interpose-fds" steal 300 "$tmp/$run.mine" "$tmp/$run.made" $extra 2>"$tmp/$run.err"
    rc=$?
    [ $rc -eq 124 ] && fail "run $run: hung (killed after 120 s)"
    [ $rc -eq 0 ] || fail "run $run: exit $rc ($(head -c 300 "$tmp/$run.err"))"
    cmp -s "$tmp/expected" "$tmp/$run.mine" ||
        fail "run $run: the program's file has $(wc -c <"$tmp/$run.mine") bytes, not the $(wc -c <"$tmp/expected") it wrote"
    "$ctdump" "$tmp/$run.ctrace" >"$tmp/$run.dump" 2>"$tmp/$run.dumperr" ||
        fail "run $run: ctdump exit $? ($(head -c 300 "$tmp/$run.dumperr"))"
    read -r made <"$tmp/$run.made"
    recorded=$(grep -c -E '^(call|launch-repeat|launch-short) ' "$tmp/$run.dump")
    lost=$(sed -n 's/^lost count=\([0-9]*\) .*/\1/p' "$tmp/$run.dump" | awk '{ s += $1 } END { print s + 0 }')
    grep -q "^end calls=$recorded lost=$lost " "$tmp/$run.dump" ||
        fail "run $run: end record '$(grep '^end' "$tmp/$run.dump")', $recorded calls and $lost lost in the file"
    [ "$((recorded + lost))" -eq "$made" ] ||
        fail "run $run: made $made calls, recorded $recorded + lost $lost = $((recorded + lost))"
    if [ $run = closefrom ]; then
        reopened=$(grep -c "^cudatrace: the program closed the descriptor of .*; reopened it\$" "$tmp/$run.err")
        [ "$reopened" -eq "$(wc -l <"$tmp/$run.err")" ] && [ "$reopened" -ge 1 ] && [ "$reopened" -le 75 ] ||
            fail "run $run: $reopened reopened, messages: $(head -c 300 "$tmp/$run.err")"
    else
        [ ! -s "$tmp/$run.err" ] || fail "run $run: unexpected messages: $(head -c 300 "$tmp/$run.err")"
    fi
    echo "run $run: made $made, recorded $recorded, lost $lost"
done
