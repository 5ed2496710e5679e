#!/bin/sh
# The same trace given twice (the same path, a symlink, a copy: the same pid and start in the header) is
# read once, with a warning on stderr, for every command: its calls are not counted twice.  Of a copy that
# holds fewer records (truncated) and the whole file, the whole one is read, whichever comes first.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

run_report 0 summary -f json "$TMP/parent.ct" "$TMP/child.ct"
cp "$TMP/out" "$TMP/want"
grep -v '"Files"' "$TMP/want" >"$TMP/want.nofiles"

ln -s "$TMP/parent.ct" "$TMP/link.ct"
cp "$TMP/parent.ct" "$TMP/copy.ct"
size=$(wc -c <"$TMP/parent.ct")
head -c $((size - 200)) "$TMP/parent.ct" >"$TMP/short.ct"

# once WHAT WANT_RC FILES...: the summary of FILES is that of parent and child, with one warning naming
# the files taken once
once() {
    what=$1 want_rc=$2
    shift 2
    run_report "$want_rc" summary -f json "$@"
    grep -v '"Files"' "$TMP/out" | cmp -s - "$TMP/want.nofiles" ||
        fail "$what: the summary differs from that of parent and child: $(grep -v '"Files"' "$TMP/out" | diff "$TMP/want.nofiles" - | head -5)"
    [ "$(grep -c 'warning: .*\(is read once\|left out\)' "$TMP/err")" = 1 ] || fail "$what: no single warning: $(cat "$TMP/err")"
}

once "the same path" 0 "$TMP/parent.ct" "$TMP/child.ct" "$TMP/parent.ct"
grep -q "warning: $TMP/parent.ct is given twice: it is read once" "$TMP/err" ||
    fail "the same path: message: $(cat "$TMP/err")"
cmp -s "$TMP/out" "$TMP/want" || fail "the same path: the Files row differs"
once "a symlink" 0 "$TMP/link.ct" "$TMP/parent.ct" "$TMP/child.ct"
grep -q "warning: $TMP/parent.ct is $TMP/link.ct again (the same file)" "$TMP/err" || fail "a symlink: message: $(cat "$TMP/err")"
once "a copy" 0 "$TMP/parent.ct" "$TMP/copy.ct" "$TMP/child.ct"
grep -q "warning: $TMP/parent.ct and $TMP/copy.ct are traces of the same process (pid 1000, same start): $TMP/parent.ct is read, $TMP/copy.ct left out$" "$TMP/err" ||
    fail "a copy: message: $(cat "$TMP/err")"
# a truncated copy first: its damage is reported (exit 3 stays: the file was given), the whole file read
once "a truncated copy first" 3 "$TMP/short.ct" "$TMP/parent.ct" "$TMP/child.ct"
grep -q "$TMP/parent.ct is read, $TMP/short.ct left out (it holds fewer records)" "$TMP/err" ||
    fail "a truncated copy first: message: $(cat "$TMP/err")"
once "a truncated copy after" 3 "$TMP/parent.ct" "$TMP/child.ct" "$TMP/short.ct"
cat "$TMP/parent.ct" | "$REPORT" summary -f json - "$TMP/child.ct" "$TMP/parent.ct" >"$TMP/out" 2>"$TMP/err"
grep -v '"Files"' "$TMP/out" | cmp -s - "$TMP/want.nofiles" || fail "standard input and the file: the summary differs"
grep -q "standard input and $TMP/parent.ct are traces of the same process" "$TMP/err" || fail "standard input: $(cat "$TMP/err")"

# Every command reads the files once: calls lists each call once, info shows one file.
run_report 0 calls -f csv "$TMP/parent.ct" "$TMP/child.ct"
cp "$TMP/out" "$TMP/want.calls"
run_report 0 calls -f csv "$TMP/parent.ct" "$TMP/link.ct" "$TMP/child.ct" "$TMP/copy.ct"
cmp -s "$TMP/out" "$TMP/want.calls" || fail "calls: differs from the calls of parent and child"
[ "$(grep -c warning "$TMP/err")" = 2 ] || fail "calls: two warnings expected: $(cat "$TMP/err")"
run_report 0 info -f json "$TMP/copy.ct" "$TMP/parent.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert "file" in d and not [k for k in d if k.startswith("file[")], list(d)
'
finish
