# exec: the records made before exec are in the first file; the exec'd program (same pid, same
# environment) is traced into a file of its own next to it.  Through each way of exec'ing: execv, and
# execl, execlp, execle and fexecve, which glibc implements without going through an interposed execve.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

for how in v l p e f; do
    rm -f cudatrace-*.ctrace cudatrace-*.ctrace.txt
    CUDATRACE_QUIET=1 "$APP" -n 100 -E $how "$APP" -n 50 -x 3
    expect "exit status of the exec'd program (-E $how)" 3 "$?"
    set -- cudatrace-*.ctrace
    expect "trace files (-E $how)" 2 "$#"
    first=$(ls cudatrace-*.ctrace | grep -v '\.1\.ctrace$')
    second=${first%.ctrace}.1.ctrace
    [ -f "$second" ] || fail "no $second next to $first (-E $how)"
    dump "$first"
    dump "$second"
    expect "calls before exec (-E $how)" 100 "$(calls "$first")"
    expect "calls after exec (-E $how)" 50 "$(calls "$second")"
    expect "end of the exec'd program's trace (-E $how)" 50 "$(end_field "$second" calls)"
    pid1=$(sed -n 's/^header .* pid=\([0-9]*\) .*/\1/p' "$first.txt")
    pid2=$(sed -n 's/^header .* pid=\([0-9]*\) .*/\1/p' "$second.txt")
    expect "same process (-E $how)" "$pid1" "$pid2"
done
