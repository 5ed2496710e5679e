#!/bin/sh
# Launch repeats (format.h, launch shapes): a program launching in loops from two threads
# (tests/samples/launch_repeat_drv) has most launches written as 16-byte repeats, and every launch reads back
# with its kernel, grid, block and stream: in the record stream (ctdump), in the time-ordered listing
# (cudatrace-report calls, which reads each thread's records by offset) and in the summary.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
report=$CT_TOP_BUILDDIR/src/report/cudatrace-report
# Every function timed: the threads' cuCtxGetDevice, counted by default, are the short calls below.
CUDATRACE_APIS=all
export CUDATRACE_APIS

run_pair rep "$CT_TOP_BUILDDIR/tests/samples/launch_repeat_drv"
grep -q '^launch_repeat_drv: 450 launches$' "$tmp/rep.traced" || fail "launch_repeat_drv did not run its launches"
launch='^call .* name=cuLaunchKernel variant=cuLaunchKernel result=0 .* launch'
expect_count rep 450 "$launch "
expect_count rep 303 "$launch kernel=kernelA kind=kernel grid=1,1,1 block=32,1,1 cluster=0,0,0 shmem=0 stream=0x0 "
# kernelZ took kernelA's old handle after the unload: its launches are its own, not repeats of kernelA's.
grep -q "kernelZ has kernelA's old handle" "$tmp/rep.traced.err" ||
    fail "the simulated driver did not reuse kernelA's handle for kernelZ: the case is not exercised"
expect_count rep 3 "$launch kernel=kernelZ kind=kernel grid=1,1,1 block=32,1,1 cluster=0,0,0 shmem=0 stream=0x0 "
expect_count rep 4 "$launch kernel=kernelA kind=kernel grid=2,1,1 block=32,1,1 cluster=0,0,0 shmem=0 stream=0x0 "
expect_count rep 100 "$launch kernel=kernelB kind=kernel grid=3,1,1 block=32,1,1 cluster=0,0,0 shmem=0 stream=0x0 "
expect_count rep 40 "$launch kernel=kernelA kind=kernel grid=1,1,1 block=32,1,1 cluster=0,0,0 shmem=0 stream=0x[1-9a-f]"
# Two threads, 226 launches (222, and 4 around the reload) and 224 (two from a TLS destructor), sequence
# numbers rising within each; no two calls share one.
awk '/^call / && / name=cuLaunchKernel / {
        split($2, s, "="); split($3, t, "=");
        if ((t[2] in last) && s[2] + 0 <= last[t[2]]) bad = bad " out-of-order:" t[2]
        if (seen[s[2]]++) bad = bad " duplicate-seq:" s[2]
        last[t[2]] = s[2] + 0; n[t[2]]++
     }
     END { for (k in n) { th++; c[n[k]]++ }
           if (c[226] != 1 || c[224] != 1) for (k in n) bad = bad " tid" k "=" n[k]
           if (th != 2) bad = bad " threads=" th
           if (bad) { print bad; exit 1 } }' "$tmp/rep.dump" || fail "per-thread launches"

# Most launches are repeats (each thread's first launch of a kernel, shape and stream is written in full),
# and most repeats are short (16 bytes: format.h, CT_REC_LAUNCH_SHORT).
"$report" info -f csv "$tmp/rep.ctrace" >"$tmp/info.csv" || fail "report info exit $?"
long=$(awk -F, '$2 == "launch-repeat" { print $1 }' "$tmp/info.csv")
short=$(awk -F, '$2 == "launch-short" { print $1 }' "$tmp/info.csv")
[ $((${long:-0} + ${short:-0})) -ge 236 ] || fail "only ${long:-0} + ${short:-0} launch repeats in the file"
[ "${short:-0}" -ge 200 ] || fail "only ${short:-0} of the launch repeats are short (${long:-0} are not)"

# Short calls (format.h, CT_REC_CALL_SHORT): each thread's 80 cuCtxGetDevice read back as successful calls,
# most of them from 16-byte records, and every call (launches, repeats, short calls and full records) has a
# sequence number of its own, rising within its thread (threads take numbers in blocks), its start never
# before its thread's previous.
expect_count rep 160 '^call .* name=cuCtxGetDevice variant=cuCtxGetDevice result=0 '
shortcalls=$(awk -F, '$2 == "call-short" { print $1 }' "$tmp/info.csv")
[ "${shortcalls:-0}" -ge 150 ] || fail "only ${shortcalls:-0} short calls in the file"
awk '/^call / {
        split($2, s, "="); split($3, t, "=")
        for (i = 4; i <= NF; i++) if ($i ~ /^t0=/) t0 = substr($i, 4) + 0
        if ((t[2] in last) && s[2] + 0 <= last[t[2]]) bad = bad " out-of-order:" t[2] ":" last[t[2]] "->" s[2]
        if (seen[s[2]]++) bad = bad " duplicate-seq:" s[2]
        if ((t[2] in t0s) && t0 < t0s[t[2]]) bad = bad " back-in-time:" s[2]
        last[t[2]] = s[2] + 0; t0s[t[2]] = t0
     }
     END { if (bad) { print bad; exit 1 } }' "$tmp/rep.dump" || fail "per-thread sequence numbers and times"

# The merged listing reads the same launches back.
"$report" calls -f csv --api cuLaunchKernel "$tmp/rep.ctrace" >"$tmp/calls.csv" || fail "report calls exit $?"
count() { grep -c -E "$1" "$tmp/calls.csv"; }
[ "$(count ',cuLaunchKernel,0,[0-9]*,[0-9]*,[0-9]*,[^,]*,cuLaunchKernel,CUDA_SUCCESS,')" = 450 ] || fail "calls: $(count ',cuLaunchKernel,') launches"
[ "$(count '"kernel=kernelA kind=kernel grid=1,1,1 block=32,1,1 shmem=0 stream=0x0 ')" = 303 ] ||
    fail "calls: kernelA grid 1 on the null stream"
[ "$(count '"kernel=kernelB kind=kernel grid=3,1,1 block=32,1,1 ')" = 100 ] || fail "calls: kernelB"
[ "$(count '"kernel=kernelA kind=kernel grid=1,1,1 block=32,1,1 shmem=0 stream=0x[1-9a-f]')" = 40 ] ||
    fail "calls: kernelA on the second streams"
[ "$(count '"kernel=kernelA kind=kernel grid=2,1,1 block=32,1,1 shmem=0 stream=0x0 ')" = 4 ] ||
    fail "calls: kernelA grid 2 (two of them from the TLS destructor's second buffer)"
[ "$(count '"kernel=kernelZ kind=kernel grid=1,1,1 block=32,1,1 shmem=0 stream=0x0 ')" = 3 ] ||
    fail "calls: kernelZ"
grep -q 'unknown' "$tmp/calls.csv" && fail "calls: a launch of unknown shape"

# A write error part-way (ulimit -f): the END record's call count is the calls in the file, repeats included;
# the lost records (calls, and the strings and other records that came with them) make up the rest.
made=$(sed -n 's/^end calls=\([0-9]*\) lost=0 .*/\1/p' "$tmp/rep.dump")
[ -n "$made" ] || fail "no END record with lost=0 in the complete trace"
(ulimit -f 52 && CUDATRACE_OUTPUT=$tmp/cut.ctrace CUDATRACE_QUIET=1 LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR \
    LD_PRELOAD=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}$CT_PRELOAD exec "$CT_TOP_BUILDDIR/tests/samples/launch_repeat_drv") >/dev/null 2>&1 ||
    fail "launch_repeat_drv under ulimit -f: exit $?"
"$ctdump" "$tmp/cut.ctrace" >"$tmp/cut.dump" || fail "ctdump of the cut trace: exit $?"
in_file=$(grep -c '^call ' "$tmp/cut.dump")
end_calls=$(sed -n 's/^end calls=\([0-9]*\) .*/\1/p' "$tmp/cut.dump")
end_lost=$(sed -n 's/^end calls=[0-9]* lost=\([0-9]*\) .*/\1/p' "$tmp/cut.dump")
[ "$in_file" -lt "$made" ] || fail "the cut trace holds all $in_file calls: the limit did not bite"
[ "$end_calls" = "$in_file" ] || fail "cut trace: END says $end_calls calls, the file holds $in_file"
[ "$((end_calls + end_lost))" -ge "$made" ] || fail "cut trace: $end_calls calls + $end_lost lost, $made made"

# The time-ordered merge (ctdump -t, the same code as the report's): the very calls of the file-order dump,
# each once, decoded the same, their starts never going back.
"$ctdump" -t "$tmp/rep.ctrace" >"$tmp/rep.merged" || fail "ctdump -t exit $?"
grep -c . "$tmp/rep.merged" | grep -qx "$(grep -c '^call ' "$tmp/rep.dump")" || fail "ctdump -t: not every call once"
sed 's/^file=0 //' "$tmp/rep.merged" | sort >"$tmp/rep.merged.sorted"
grep '^call ' "$tmp/rep.dump" | sort | cmp -s - "$tmp/rep.merged.sorted" || fail "ctdump -t: calls differ from the dump"
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^t0=/) { t = substr($i, 4) + 0; if (t < last) bad = 1; last = t } }
     END { exit bad }' "$tmp/rep.merged" || fail "ctdump -t: a start goes back in time"

"$report" summary -f csv --section kernels "$tmp/rep.ctrace" >"$tmp/shapes.csv" || fail "summary exit $?"
grep -q '^343,1 1 1,32 1 1,kernelA$' "$tmp/shapes.csv" || fail "summary: kernelA 1 1 1 ($(cat "$tmp/shapes.csv"))"
grep -q '^4,2 1 1,32 1 1,kernelA$' "$tmp/shapes.csv" || fail "summary: kernelA 2 1 1"
grep -q '^100,3 1 1,32 1 1,kernelB$' "$tmp/shapes.csv" || fail "summary: kernelB"
exit 0
