# fork: the child writes its own complete file and none of the parent's records; the parent's file has
# all of its own records, before and after the fork.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

CUDATRACE_QUIET=1 "$APP" -n 1000 -m -F || fail "app exited $?"
set -- cudatrace-*.ctrace
expect "trace files" 2 "$#"
for f; do dump "$f"; done
parent=; child=
for f; do
    if grep -q "^header .* ppid=$$ " "$f.txt"; then parent=$f; else child=$f; fi
done
[ -n "$parent" ] && [ -n "$child" ] || fail "cannot tell parent and child files apart"
ppid=$(sed -n 's/^header .* pid=\([0-9]*\) .*/\1/p' "$parent.txt")
grep -q "^header .* ppid=$ppid " "$child.txt" || fail "child's header does not name the parent"
expect "parent calls" 2000 "$(calls "$parent")"
expect "parent end calls" 2000 "$(end_field "$parent" calls)"
expect "child calls" 1000 "$(calls "$child")"
expect "child end calls" 1000 "$(end_field "$child" calls)"
# The child's file still resolves the names interned before the fork.
grep -q '^string id=1 kind=kernel value=vecAdd$' "$child.txt" || fail "child lacks the interned kernel name"
grep -q '^call .* launch kernel=vecAdd ' "$child.txt" || fail "child's launches have no kernel name"
expect "child's device records" 1 "$(grep -c '^device ordinal=0 ' "$child.txt")"

# fork from a signal handler while the intern table's lock is out of reach: held by the very thread the
# signal interrupted (the fork does not wait at all), or by another thread for 5 s (it waits a bounded
# time).  Neither hangs; the child is not traced, and says so once; the parent's file is whole.
for who in self other; do
    rm -f cudatrace-*.ctrace
    start=$(date +%s)
    "$APP" -n 1000 -m -F -L $who 2>"$who.err" || fail "-L $who: app exited $? ($(cat "$who.err"))"
    [ $(($(date +%s) - start)) -le 8 ] || fail "-L $who: took more than 8 s"
    set -- cudatrace-*.ctrace
    expect "-L $who: trace files" 1 "$#"
    dump "$1"
    expect "-L $who: parent calls" 2000 "$(calls "$1")"
    expect "-L $who: parent end calls" 2000 "$(end_field "$1" calls)"
    expect "-L $who: warnings" 1 "$(grep -c 'was forked while the tracer was busy (from a signal handler?): it is not traced' "$who.err")"
done
