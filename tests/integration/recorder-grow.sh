# A thread whose writer falls behind goes on in a bigger ring (up to CUDATRACE_BUFFER_SIZE) instead of
# dropping records: recorder-order -g stops the writer while the main thread makes 100,000 records
# (4.8 MB, nearly five times its first ring).  With an 8M limit nothing is lost and the records keep their
# order across the rings; with a 1M limit (no room to grow) the same run must lose records, which shows
# that the writer really was stopped.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

ORDER="$CT_TOP_BUILDDIR/tests/integration/recorder-order"
for size in 8M 1M; do
    mkdir "$size" && cd "$size" || fail "cannot make $WORK/$size"
    CUDATRACE_BUFFER_SIZE=$size CUDATRACE_QUIET=1 "$ORDER" -g 100000 ||
        fail "recorder-order -g exited $? with $size (2: the writer was not stopped)"
    set -- cudatrace-*.ctrace
    dump "$1"
    thread_counts "$1"
    lost=$(awk '/^lost .* reason=buffer_full/ { split($2, a, "="); n += a[2] } END { print n + 0 }' "$1.txt")
    if [ "$size" = 8M ]; then
        expect "lost with room to grow" 0 "$lost"
        expect "records" 100000 "$(calls "$1")"
    else
        [ "$lost" -gt 0 ] || fail "nothing lost in a 1M ring while the writer was stopped"
        expect "records + lost" 100000 "$(($(calls "$1") + lost))"
    fi
    cd ..
done
