#!/bin/sh
# Broken input never crashes the report: missing, empty, a directory, random bytes, a foreign file, flipped
# header fields (exit 2, one message naming the file), truncated or corrupt records (exit 3, a warning, the
# calls before the damage still reported).  Offsets follow include/cudatrace/format.h.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
good=$TMP/parent.ct
size=$(wc -c <"$good" | tr -d ' ')

# expect_refused FILE WHAT: exit 2 from every command, a message naming the file
expect_refused() {
    for cmd in summary calls info "export --format chrome"; do
        # shellcheck disable=SC2086
        run_report 2 $cmd "$1"
        grep -q "$1" "$TMP/err" || fail "$2 ($cmd): message does not name the file: $(cat "$TMP/err")"
        [ -s "$TMP/out" ] && fail "$2 ($cmd): printed a report"
    done
    [ "$(wc -l <"$TMP/err" | tr -d ' ')" = 1 ] || fail "$2: more than one line of message: $(cat "$TMP/err")"
}

# patch FILE OFFSET BYTES(hex): overwrite bytes in a copy of the good trace
patch() {
    cp "$good" "$1"
    printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

expect_refused "$TMP/missing.ct" "missing file"
: >"$TMP/empty.ct"
expect_refused "$TMP/empty.ct" "empty file"
mkdir "$TMP/dir.ct"
expect_refused "$TMP/dir.ct" "a directory"
head -c 4096 /dev/urandom >"$TMP/random.ct"
expect_refused "$TMP/random.ct" "random bytes"
printf '\177ELF\002\001\001\000' >"$TMP/elf.ct"
head -c 200 /dev/zero >>"$TMP/elf.ct"
expect_refused "$TMP/elf.ct" "foreign file"
patch "$TMP/magic.ct" 0 'X'
expect_refused "$TMP/magic.ct" "flipped magic"
grep -qi 'not a cudatrace trace\|magic' "$TMP/err" || fail "magic message: $(cat "$TMP/err")"
patch "$TMP/version.ct" 8 '\143'    # format_version = 99
expect_refused "$TMP/version.ct" "newer format version"
grep -q '99' "$TMP/err" && grep -q '1' "$TMP/err" || fail "version message names both versions: $(cat "$TMP/err")"
patch "$TMP/hsize.ct" 12 '\003'     # header_size = 3
expect_refused "$TMP/hsize.ct" "flipped header size"
patch "$TMP/order.ct" 16 '\001\002\003\004'    # the mark written big-endian
expect_refused "$TMP/order.ct" "foreign byte order"
head -c 40 "$good" >"$TMP/short-header.ct"
expect_refused "$TMP/short-header.ct" "truncated inside the header"

# Truncated inside the records: exit 3, a warning naming the file, the earlier calls still summarized.
for cut in 100 1000 1500 2000 $((size - 8)) $((size - 41)); do
    head -c "$cut" "$good" >"$TMP/cut.ct"
    run_report 3 summary -f json "$TMP/cut.ct"
    grep -q "$TMP/cut.ct" "$TMP/err" && grep -qi 'truncat\|corrupt' "$TMP/err" || fail "cut at $cut: warning: $(cat "$TMP/err")"
    py 'import json, sys; d = json.load(open(sys.argv[1])); assert d["header"]["Calls recorded"] <= 20'
    run_report 3 calls -f csv "$TMP/cut.ct"
    run_report 3 export --format chrome "$TMP/cut.ct"
    py 'import json, sys; json.load(open(sys.argv[1]))'
done
# the last record is the end record: a file cut inside it still has all 20 calls
head -c $((size - 8)) "$good" >"$TMP/cut.ct"
run_report 3 summary -f json "$TMP/cut.ct"
py 'import json, sys; assert json.load(open(sys.argv[1]))["header"]["Calls recorded"] == 20'

# A corrupt record (bad marker, bad size) after good ones: exit 3, what precedes reported.  The offset of
# the 10th call record, walking the records by their size field (struct ct_rec_hdr).
call10=$("$PY" -c '
import struct, sys
data = open(sys.argv[1], "rb").read()
off, calls = 64, 0
while off < len(data):
    marker, typ, size = struct.unpack_from("<BBH", data, off)
    if typ in (4, 13, 15):  # a call record, a launch repeat, a short one
        calls += 1
        if calls == 10:
            print(off)
            break
    off += size
' "$good")
[ -n "$call10" ] || fail "could not find the 10th call"
patch "$TMP/marker.ct" "$call10" '\000'
run_report 3 summary -f json -s header "$TMP/marker.ct"
grep -q "$TMP/marker.ct" "$TMP/err" || fail "corrupt marker: $(cat "$TMP/err")"
py 'import json, sys; assert json.load(open(sys.argv[1]))["header"]["Calls recorded"] == 9'
patch "$TMP/size.ct" $((call10 + 2)) '\003\000'    # a record size that is not a multiple of 8
run_report 3 calls -f csv "$TMP/size.ct"
expect_eq "calls before a corrupt size" 9 "$(tail -n +2 "$TMP/out" | wc -l | tr -d ' ')"

# An allocation on a device ordinal no device has (a damaged payload): counted under device -1, the report's
# memory never sized by it (it once grew a table by the ordinal: gigabytes for 200000000).
"$PY" -c '
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
off = 64
while off < len(data):
    marker, typ, size = struct.unpack_from("<BBH", data, off)
    if typ == 4 and data[off + 10] == 1:    # a call with an allocation payload: device at 48 + 28
        struct.pack_into("<i", data, off + 76, 200000000)
    off += size
open(sys.argv[2], "wb").write(data)
' "$good" "$TMP/device.ct" || fail "could not write device.ct"
# (No address-space limit for an ASan-built report: its shadow memory alone exceeds it.)
asan=$( (ldd "$REPORT"; ldd "$CT_TOP_BUILDDIR/src/report/.libs/cudatrace-report") 2>/dev/null | grep -c libasan)
(if [ "$asan" = 0 ]; then ulimit -v 1000000 2>/dev/null; fi
 "$REPORT" memory -f json "$TMP/device.ct" >"$TMP/out" 2>"$TMP/err")
expect_eq "memory of a damaged device ordinal: exit" 0 "$?"
py 'import json, sys; d = json.load(open(sys.argv[1])); assert {m["device"] for m in d["memory"]} == {-1}, d["memory"]'

# Impossible times (format.h: CT_MONO_NS_MAX, CT_WALL_NS_MAX), which the report's time arithmetic would
# overflow on: in the header, refused (exit 2); in a call, a clock or the end record, corrupt (exit 3).
patch "$TMP/mono.ct" 47 '\100'    # start_mono_ns >= 2^62
expect_refused "$TMP/mono.ct" "impossible monotonic start"
grep -q 'impossible start time' "$TMP/err" || fail "start time message: $(cat "$TMP/err")"
patch "$TMP/wall.ct" 39 '\200'    # start_wall_ns < 0
expect_refused "$TMP/wall.ct" "negative wall clock start"
# set_field OUT TYPE NTH OFFSET FORMAT VALUE: in the NTH record of TYPE, a field (struct module syntax)
set_field() {
    "$PY" -c '
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
typ, nth, at, fmt = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
value = float(sys.argv[7]) if fmt in "dD" else int(sys.argv[7], 0)
off, seen = 64, 0
while off < len(data):
    size = struct.unpack_from("<H", data, off + 2)[0]
    if data[off + 1] == typ:
        seen += 1
        if seen == nth:
            struct.pack_into("<" + fmt, data, off + at, value)
            break
    off += size
assert seen == nth, "record not found"
open(sys.argv[2], "wb").write(data)
' "$good" "$@" || fail "could not write $1"
}
for t in 0x7fffffffffffffff 0xffffffffffffffff 0x2000000000000000; do
    set_field "$TMP/t0.ct" 4 1 24 Q "$t"    # the first call's t0
    run_report 3 summary -f json "$TMP/t0.ct"
    grep -q 'call time out of range' "$TMP/err" || fail "call t0 $t: warning: $(cat "$TMP/err")"
    set_field "$TMP/t1.ct" 4 3 32 Q "$t"    # the third call's t1
    for cmd in summary calls "export --format chrome" "export --format csv" memory; do
        # shellcheck disable=SC2086
        run_report 3 $cmd -o "$TMP/out" "$TMP/t1.ct"
    done
done
# the clock's base ticks 2^63 away from every call's: times that no int64_t holds, in ns or in ticks
set_field "$TMP/clock.ct" 14 1 8 Q 0x8000000000000000
run_report 3 calls -f csv "$TMP/clock.ct"
grep -q 'out of range' "$TMP/err" || fail "clock base: warning: $(cat "$TMP/err")"
set_field "$TMP/end.ct" 10 1 32 q -5    # the end record's end_mono_ns
run_report 3 summary -f json "$TMP/end.ct"
grep -q 'end record with an impossible time' "$TMP/err" || fail "end time: warning: $(cat "$TMP/err")"

# A module record naming a FIFO (a damaged or crafted path): symbolizing neither opens it for reading nor
# runs addr2line on it, either of which waits for a writer for ever.
mkfifo "$TMP/module.fifo" || fail "mkfifo"
"$PY" -c '
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
data[20] |= 1                                        # features: CT_FEAT_STACKS
path = sys.argv[3].encode()
size = (72 + len(path) + 7) // 8 * 8
mod = struct.pack("<BBHIQQQHBBI32s", 0xC7, 12, size, 0, 0, 0x1000, 0x2000, len(path), 0, 0, 0, b"") + path
data += mod + bytes(size - len(mod))
data += struct.pack("<BBHIIHHQ", 0xC7, 11, 24, 0, 1, 1, 0, 0x1800)   # a stack of one frame in it
open(sys.argv[2], "wb").write(data)
' "$good" "$TMP/fifo.ct" "$TMP/module.fifo" || fail "could not write fifo.ct"
for cmd in memory stacks; do
    timeout 20 "$REPORT" $cmd -f json "$TMP/fifo.ct" >"$TMP/out" 2>"$TMP/err"
    expect_eq "$cmd with a FIFO as a module: exit" 0 "$?"
done

# Random damage anywhere: never a crash (exit 0, 2 or 3; with a message when not 0).
i=0
while [ $i -lt 60 ]; do
    off=$(( (i * 7919 + 13) % size ))
    patch "$TMP/fuzz.ct" "$off" "\\$(printf '%03o' $(( (i * 37 + 11) % 256 )))"
    for cmd in summary calls info; do
        # shellcheck disable=SC2086
        "$REPORT" $cmd -f json "$TMP/fuzz.ct" >"$TMP/out" 2>"$TMP/err"
        rc=$?
        case $rc in
        0) ;;
        2 | 3) [ -s "$TMP/err" ] || fail "fuzz offset $off ($cmd): exit $rc without a message" ;;
        *) fail "fuzz offset $off ($cmd): exit $rc; $(cat "$TMP/err")" ;;
        esac
    done
    i=$((i + 1))
done
finish
