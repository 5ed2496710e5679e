# Shared by the recorder-*.sh tests (sourced): the programs, a scratch directory removed on exit, helpers.
APP="$CT_TOP_BUILDDIR/tests/integration/recorder-app"
DUMP="$CT_TOP_BUILDDIR/tests/integration/ctdump"
[ -x "$APP" ] && [ -x "$DUMP" ] || { echo "recorder-app or ctdump not built"; exit 99; }
WORK=$(mktemp -d) || exit 99
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 99
unset CUDATRACE_OUTPUT CUDATRACE_BUFFER_SIZE CUDATRACE_FLUSH_MS CUDATRACE_QUIET CUDATRACE_FILE_MODE

fail() { echo "FAIL: $*"; exit 1; }

# expect WHAT EXPECTED ACTUAL
expect() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }

# Dump a trace into FILE.txt, requiring ctdump's exit status (default 0).
dump() {
    "$DUMP" "$1" >"$1.txt" 2>"$1.err"
    rc=$?
    [ "$rc" = "${2:-0}" ] || { cat "$1.err"; fail "ctdump $1 exited $rc, expected ${2:-0}"; }
}

calls() { grep -c '^call ' "$1.txt"; }
end_field() { sed -n "s/^end .*$2=\([0-9]*\).*/\1/p" "$1.txt"; }

# Each thread's call records in FILE.txt in the order it made them (increasing sequence numbers); writes
# "TID COUNT" per thread to FILE.threads, in order of first appearance; fails on the first record out of order.
thread_counts() {
    awk '/^call / {
            split($2, s, "="); split($3, t, "=");
            if ((t[2] in last) && s[2] + 0 <= last[t[2]]) { print "out of order: tid " t[2] " seq " s[2]; exit 1 }
            if (!(t[2] in n)) order[++threads] = t[2];
            last[t[2]] = s[2] + 0; n[t[2]]++
         }
         END { for (i = 1; i <= threads; i++) print order[i], n[order[i]] }' "$1.txt" >"$1.threads" ||
        fail "$(head -n 1 "$1.threads")"
}
