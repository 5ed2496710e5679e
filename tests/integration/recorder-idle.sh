# An idle process costs its trace nothing: a drain with no call to write writes no clock record either.
# The app records 10 calls, then idles for a second under a 10 ms writer interval (about 100 drains) before
# SIGTERM: one clock record precedes the calls' ticks (two if a drain split them), and none follow.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"
command -v python3 >/dev/null || { echo "python3 is needed to read the raw records"; exit 77; }

CUDATRACE_FLUSH_MS=10 CUDATRACE_QUIET=1 "$APP" -n 10 -p -w ready &
pid=$!
i=0
while [ ! -f ready ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -f ready ] || fail "app never got ready"
sleep 1
kill -TERM $pid
wait $pid
expect "exit status" 143 "$?"
set -- cudatrace-*.ctrace
dump "$1"
expect "calls" 10 "$(calls "$1")"
# Count the CT_REC_CLOCK records (type 14) in the file as written: the reader never returns them.
clocks=$(python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
off, n = struct.unpack_from("<I", data, 12)[0], 0
while off + 8 <= len(data):
    _, rtype, size = struct.unpack_from("<BBH", data, off)
    n += rtype == 14
    off += size or len(data)
print(n)
PY
)
if [ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" = tsc ]; then
    [ "$clocks" -ge 1 ] && [ "$clocks" -le 2 ] || fail "clock records: expected 1 or 2, got $clocks"
else
    expect "clock records (times are ns without the TSC)" 0 "$clocks"
fi
