#!/bin/sh
# The tracer's descriptors stay out of the program's range: a program that closed 0 and 1 before its first
# allocation (the tracer's first call stack) gets them back from its next open()s, as untraced; at
# RLIMIT_NOFILE 16 its first open() gets the number it gets untraced, and it can open as many files, less
# the tracer's reserve of 3 (the trace and libunwind's pipe, doc/recording.md).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"

for stacks in alloc none; do
    for mode in low limit; do
        name=$mode-$stacks
        LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$bin/interpose-fds" $mode >"$tmp/$name.plain" 2>&1 ||
            fail "$name untraced: exit $?"
        CUDATRACE_OUTPUT=$tmp/$name.ctrace CUDATRACE_QUIET=1 CUDATRACE_STACKS=$stacks LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
            LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD \
            "$bin/interpose-fds" $mode >"$tmp/$name.traced" 2>&1 || fail "$name traced: exit $?"
        "$ctdump" "$tmp/$name.ctrace" >"$tmp/$name.dump" || fail "$name: ctdump exit $?"
        grep -q '^end ' "$tmp/$name.dump" || fail "$name: no end record"
        case $mode in
        low)
            [ "$(cat "$tmp/$name.plain")" = "open: 0 1" ] || fail "$name untraced: $(cat "$tmp/$name.plain")"
            [ "$(cat "$tmp/$name.traced")" = "open: 0 1" ] ||
                fail "$name: traced, the program's open()s got $(cat "$tmp/$name.traced"), untraced 0 1"
            ;;
        limit)
            read -r _ pfirst _ pfiles _ <"$tmp/$name.plain"
            read -r _ tfirst _ tfiles _ <"$tmp/$name.traced"
            [ "$tfirst" = "$pfirst" ] || fail "$name: first descriptor $tfirst traced, $pfirst untraced"
            [ "${tfiles%,}" -ge "$((${pfiles%,} - 3))" ] ||
                fail "$name: $tfiles files traced, $pfiles untraced (reserve 3)"
            echo "$name: $(cat "$tmp/$name.plain") untraced; $(cat "$tmp/$name.traced") traced"
            ;;
        esac
    done
done
