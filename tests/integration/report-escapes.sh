#!/bin/sh
# Table output is read on a terminal: names from the trace with control characters in them (a thread named
# to clear the screen, a kernel name with a title sequence and a C1 CSI, an NVTX message, an API name, the
# host, the command line, a module path) come out escaped (\xHH, \u00HH) in every command's table, the
# rest of the name as it is; CSV and JSON keep the bytes (they quote).
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

"$GEN" escapes "$TMP/esc.ct" || { echo "report-gen failed" >&2; exit 99; }

# no_controls WHAT: $TMP/out has no control character but line ends, and shows each name escaped
no_controls() {
    "$PY" -c '
import sys
out = open(sys.argv[1], "rb").read()
bad = sorted({b for b in out if (b < 0x20 and b != 0x0a) or b == 0x7f})
assert not bad, "control bytes %s" % bad
assert b"\xc2\x9b" not in out, "a C1 control"
for want in sys.argv[2:]:
    assert want.encode() in out, "no %r" % want
' "$TMP/out" "$@" 2>"$TMP/pyerr" || fail "$what: $(cat "$TMP/pyerr")"
}

what="summary"
run_report 0 summary -f table "$TMP/esc.ct"
no_controls '\x1b[2J arg' 'host\x1b[31m' ':step\x1b[31m' 'cuMemAlloc\x1b[5m' 'k\x1b]0;title\x07\u009b2J'
what="calls"
run_report 0 calls -f table --stacks "$TMP/esc.ct"
no_controls '\x1b[2J\x1b[31mPWN\x0d' 'kernel=k\x1b]0;title\x07\u009b2J' 'cuMemAlloc\x1b[5m' '[\x1b[2Jlibevil.so]'
what="memory"
run_report 0 memory -f table "$TMP/esc.ct"
no_controls '#0 0x7f0000001234 [\x1b[2Jlibevil.so]'
what="stacks"
run_report 0 stacks -f table "$TMP/esc.ct"
no_controls 'cuMemAlloc\x1b[5m: 1 calls' '[\x1b[2Jlibevil.so]'
what="info"
run_report 0 info -f table "$TMP/esc.ct"
no_controls 'host\x1b[31m'

# The columns stay aligned by what is shown: the kernel table's name column is as wide as the escaped name.
run_report 0 summary -f table --section kernels "$TMP/esc.ct"
"$PY" -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
i = next(i for i, l in enumerate(lines) if l.endswith("k\\x1b]0;title\\x07\\u009b2J"))
assert len(lines[i - 1]) == len(lines[i]), (lines[i - 1], lines[i])
' "$TMP/out" 2>"$TMP/pyerr" || fail "alignment: $(cat "$TMP/pyerr")"

# CSV and JSON carry the names as they are.
run_report 0 summary -f json --section kernels "$TMP/esc.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kernels"][0]["Name"] == "k\x1b]0;title\x07\x9b2J", d["kernels"]
'
run_report 0 calls -f csv "$TMP/esc.ct"
grep -q "$(printf 'PWN\r')" "$TMP/out" || fail "csv: the thread name changed"
finish
