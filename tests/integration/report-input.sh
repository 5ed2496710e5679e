#!/bin/sh
# Input that is not a regular file: a trace piped in as "-" or /dev/stdin, or through a named FIFO, gives
# the report it gives as a file, and never hangs; endless input that is no trace is refused at once; no
# room for its temporary copy is an error.  A read error
# anywhere (the first pass or the merge's) is exit 2 and a message, never a shorter report.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
SHIM=$CT_TOP_BUILDDIR/tests/integration/.libs/libfailpread.so

# same_as_file WHAT: $TMP/out equals $TMP/want, the report of the files themselves
same_as_file() {
    cmp -s "$TMP/want" "$TMP/out" || fail "$1: differs from the report of the file: $(diff "$TMP/want" "$TMP/out" | head -5)"
}

"$REPORT" calls -f csv "$TMP/parent.ct" "$TMP/child.ct" >"$TMP/want" || fail "calls of the files"
[ "$(wc -l <"$TMP/want")" -gt 20 ] || fail "calls of the files: too few lines"

"$REPORT" calls -f csv - "$TMP/child.ct" <"$TMP/parent.ct" >"$TMP/out" 2>"$TMP/err" || fail "- from a file: $(cat "$TMP/err")"
same_as_file "- redirected from the file"
cat "$TMP/parent.ct" | "$REPORT" calls -f csv - "$TMP/child.ct" >"$TMP/out" 2>"$TMP/err" || fail "- from a pipe: $(cat "$TMP/err")"
same_as_file "- from a pipe"
cat "$TMP/parent.ct" | "$REPORT" calls -f csv /dev/stdin "$TMP/child.ct" >"$TMP/out" 2>"$TMP/err" ||
    fail "/dev/stdin from a pipe: $(cat "$TMP/err")"
same_as_file "/dev/stdin from a pipe"

# summary and analyze read a trace through /dev/stdin or a named FIFO too (their look for a partial must not
# take from the pipe what the trace reader reads, nor open a FIFO twice: that hung).
"$REPORT" summary -f csv -s api "$TMP/parent.ct" >"$TMP/want" || fail "summary of the file"
cat "$TMP/parent.ct" | "$REPORT" summary -f csv -s api /dev/stdin >"$TMP/out" 2>"$TMP/err" ||
    fail "summary of /dev/stdin from a pipe: $(cat "$TMP/err")"
same_as_file "summary of /dev/stdin from a pipe"
mkfifo "$TMP/fifo-s" || exit 99
timeout 20 sh -c 'cat "$1" >"$2"' sh "$TMP/parent.ct" "$TMP/fifo-s" & # killed if the report never opens it
timeout 20 "$REPORT" summary -f csv -s api "$TMP/fifo-s" >"$TMP/out" 2>"$TMP/err" || fail "summary of a FIFO: exit $? $(cat "$TMP/err")"
wait
same_as_file "summary of a FIFO"
"$REPORT" analyze -f json "$TMP/parent.ct" | grep -v '"files"' >"$TMP/want"
cat "$TMP/parent.ct" | "$REPORT" analyze -f json /dev/stdin 2>"$TMP/err" | grep -v '"files"' >"$TMP/out"
[ -s "$TMP/out" ] || fail "analyze of /dev/stdin from a pipe: $(cat "$TMP/err")"
same_as_file "analyze of /dev/stdin from a pipe"
timeout 20 sh -c 'cat "$1" >"$2"' sh "$TMP/parent.ct" "$TMP/fifo-s" &
timeout 20 "$REPORT" analyze -f json "$TMP/fifo-s" 2>"$TMP/err" | grep -v '"files"' >"$TMP/out"
wait
same_as_file "analyze of a FIFO"
# ... and a partial through a pipe is refused, saying why.
"$REPORT" summary --partial -o "$TMP/p.ctpart" "$TMP/parent.ct" || fail "summary --partial"
cat "$TMP/p.ctpart" | "$REPORT" summary /dev/stdin >"$TMP/out" 2>"$TMP/err"
[ $? = 2 ] && grep -q 'a partial is read from a regular file named on the command line, not from standard input or a pipe' "$TMP/err" ||
    fail "summary of a partial piped in: $(cat "$TMP/err")"

# An --output that is one of the inputs (by any name) is refused before anything is written: the input stays.
cp "$TMP/parent.ct" "$TMP/same.ct"
ln -s same.ct "$TMP/same-link.ct"
for cmd in summary calls memory stacks info analyze "export -f csv" "export -f sqlite" "summary --partial" "analyze --partial"; do
    # shellcheck disable=SC2086
    "$REPORT" $cmd -o "$TMP/same.ct" "$TMP/child.ct" "$TMP/same-link.ct" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ $rc = 1 ] && grep -q "output $TMP/same.ct is the input $TMP/same-link.ct" "$TMP/err" ||
        fail "$cmd -o an input: exit $rc, $(cat "$TMP/err")"
    cmp -s "$TMP/parent.ct" "$TMP/same.ct" || fail "$cmd -o an input: the input was changed"
done

# summary: the same but for the file's name
"$REPORT" summary -f json "$TMP/parent.ct" | grep -v '"Files"' >"$TMP/want"
cat "$TMP/parent.ct" | "$REPORT" summary -f json - >"$TMP/out.raw" 2>"$TMP/err" || fail "summary of -: $(cat "$TMP/err")"
grep -q '"Files": *"standard input"' "$TMP/out.raw" || fail "summary of -: the file is not named standard input"
grep -v '"Files"' "$TMP/out.raw" >"$TMP/out"
same_as_file "summary of - from a pipe"

# A named FIFO, its writer started after the report: read once, to its end; never a hang.
mkfifo "$TMP/fifo"
"$REPORT" calls -f csv "$TMP/parent.ct" "$TMP/child.ct" >"$TMP/want"
(cat "$TMP/parent.ct" >"$TMP/fifo" &)
timeout 20 "$REPORT" calls -f csv "$TMP/fifo" "$TMP/child.ct" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] || fail "a FIFO: exit $rc (124: it hung): $(cat "$TMP/err")"
same_as_file "a FIFO"

# Standard input that is not a trace, or empty: refused as a file would be.
echo hello | "$REPORT" summary - >"$TMP/out" 2>"$TMP/err"
[ $? = 2 ] && grep -q 'standard input: not a cudatrace trace' "$TMP/err" || fail "text on stdin: $(cat "$TMP/err")"
"$REPORT" summary - </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? = 2 ] && grep -q 'standard input' "$TMP/err" || fail "empty stdin: $(cat "$TMP/err")"

# Endless input that is not a trace (/dev/zero, `yes |`) is refused at its first bytes, not copied whole
# to $TMPDIR first.  A file size limit keeps a copy that is made anyway small (and its write fails).
for src in /dev/zero pipe; do
    if [ "$src" = pipe ]; then
        (trap '' XFSZ; ulimit -f 1024; yes | timeout 20 "$REPORT" info - >"$TMP/out" 2>"$TMP/err"; echo $? >"$TMP/rc")
    else
        (trap '' XFSZ; ulimit -f 1024; timeout 20 "$REPORT" info /dev/zero >"$TMP/out" 2>"$TMP/err"; echo $? >"$TMP/rc")
    fi
    [ "$(cat "$TMP/rc")" = 2 ] && grep -q ': not a cudatrace trace$' "$TMP/err" ||
        fail "endless input ($src): exit $(cat "$TMP/rc"): $(cat "$TMP/err")"
done

# No room for the temporary copy (a file size limit stands in for a full disk): exit 2, a message.
"$GEN" big 20000 "$TMP/big.ct"
(trap '' XFSZ; ulimit -f 64; cat "$TMP/big.ct" | "$REPORT" summary - >"$TMP/out" 2>"$TMP/err"; echo $? >"$TMP/rc")
[ "$(cat "$TMP/rc")" = 2 ] || fail "full disk: exit $(cat "$TMP/rc"), expected 2"
grep -q 'standard input: cannot copy it to a temporary file' "$TMP/err" || fail "full disk: message: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "full disk: printed a report"
TMPDIR=$TMP/none "$REPORT" summary - <"$TMP/big.ct" >"$TMP/out" 2>"$TMP/err" # a regular file: no copy needed
[ $? = 0 ] || fail "stdin redirected from a file needs no temporary copy: $(cat "$TMP/err")"
cat "$TMP/big.ct" | TMPDIR=$TMP/none "$REPORT" summary - >"$TMP/out" 2>"$TMP/err"
[ $? = 2 ] && grep -q "temporary copy in $TMP/none" "$TMP/err" || fail "no temporary directory: $(cat "$TMP/err")"

# Read errors: the first N preads succeed, then every one fails.  Each N: exit 2 with a read error and no
# report, or (N past the last read) exit 0 and the whole report.
if grep -aq '__asan_init\|__tsan_init\|__msan_init' "$REPORT"; then
    echo "sanitized build: the pread shim is not preloaded (the sanitizer's runtime must come first)"
else
    [ -f "$SHIM" ] || { echo "$SHIM not built" >&2; exit 99; }
    "$REPORT" summary -f json "$TMP/big.ct" >"$TMP/want"
    n=0
    errors=0
    while [ "$n" -le 400 ]; do
        CT_FAIL_PREAD_AFTER=$n LD_PRELOAD=$SHIM "$REPORT" summary -f json "$TMP/big.ct" >"$TMP/out" 2>"$TMP/err"
        rc=$?
        if [ "$rc" = 0 ]; then
            same_as_file "summary, read errors after $n reads"
            break
        fi
        errors=$((errors + 1))
        [ "$rc" = 2 ] || fail "read error after $n reads: exit $rc, expected 2"
        grep -q "big.ct: read error at byte" "$TMP/err" || fail "read error after $n reads: message: $(cat "$TMP/err")"
        [ -s "$TMP/out" ] && fail "read error after $n reads: printed a report"
        n=$((n + 1))
    done
    # the first pass reads the file in a few large reads, the merge in many: most N strike the merge
    [ "$errors" -gt 5 ] || fail "read errors: only $errors runs met one"
    CT_FAIL_PREAD_AFTER=3 LD_PRELOAD=$SHIM "$REPORT" calls -f csv "$TMP/big.ct" >"$TMP/out" 2>"$TMP/err"
    [ $? = 2 ] && grep -q 'read error' "$TMP/err" || fail "calls with a read error in the merge: $(cat "$TMP/err")"
fi
finish
