# exec: the records made before exec are in the first file; the exec'd program (same pid, same
# environment) is traced into a file of its own next to it.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_QUIET=1 "$APP" -n 100 "$APP" -n 50 -x 3
expect "exit status of the exec'd program" 3 "$?"
set -- cudatrace-*.ctrace
expect "trace files" 2 "$#"
first=$(ls cudatrace-*.ctrace | grep -v '\.1\.ctrace$')
second=${first%.ctrace}.1.ctrace
[ -f "$second" ] || fail "no $second next to $first"
dump "$first"
dump "$second"
expect "calls before exec" 100 "$(calls "$first")"
expect "calls after exec" 50 "$(calls "$second")"
expect "end of the exec'd program's trace" 50 "$(end_field "$second" calls)"
pid1=$(sed -n 's/^header .* pid=\([0-9]*\) .*/\1/p' "$first.txt")
pid2=$(sed -n 's/^header .* pid=\([0-9]*\) .*/\1/p' "$second.txt")
expect "same process" "$pid1" "$pid2"
