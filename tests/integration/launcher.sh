#!/bin/sh
# The `cudatrace` launcher end to end on the simulated driver: the library preloaded (the user's LD_PRELOAD
# kept, an NVTX injection library forwarded to; the library put first when already there, under a path
# with a space refused), the options as CUDATRACE_* variables (a bad -o template refused), the command's
# exit status, death by a signal reproduced (with and without --stats), signals sent to the launcher passed
# on, --stats summarizing the files of every process of the run (a shell running two samples; a newline or
# a backslash in a file's name), capture by NVTX range, `cudatrace report`, and its own errors (125, 126,
# 127).
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
launcher=$CT_LAUNCHER
samples=$CT_TOP_BUILDDIR/tests/samples
[ -x "$launcher" ] || fail "no $launcher"
export LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR
cd "$tmp" || exit 99
lib=$(realpath "$CT_PRELOAD")
# The sanitizer build's library needs the ASan runtime preloaded first of all: every run here has it, and
# the launcher keeps a sanitizer runtime in front of the library.
san=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}
[ -z "$san" ] || export LD_PRELOAD="$CT_TEST_PRELOAD_PREFIX"

# The environment it sets.
out=$(LD_PRELOAD=${san}/lib/x86_64-linux-gnu/libm.so.6 NVTX_INJECTION64_PATH=/opt/tool/libinject.so "$launcher" run -o 'x-%p.ctrace' \
    --capture profiler --stacks none --python-stacks off --gpu-time off -- sh -c 'echo "$LD_PRELOAD|$NVTX_INJECTION64_PATH|$CUDATRACE_NVTX_FORWARD|$CUDATRACE_OUTPUT|$CUDATRACE_CAPTURE|$CUDATRACE_STACKS|$CUDATRACE_PYTHON_STACKS|$CUDATRACE_GPU_TIME"')
[ "$out" = "$san$lib:/lib/x86_64-linux-gnu/libm.so.6|$lib|/opt/tool/libinject.so|x-%p.ctrace|profiler|none|off|off" ] ||
    fail "environment: $out"
if [ -z "$san" ]; then
    out=$(env -u LD_PRELOAD -u NVTX_INJECTION64_PATH "$launcher" run sh -c 'echo "$LD_PRELOAD|$NVTX_INJECTION64_PATH|${CUDATRACE_NVTX_FORWARD-unset}"')
    [ "$out" = "$lib|$lib|unset" ] || fail "environment without preload: $out"
fi
out=$(LD_PRELOAD="${san}/usr/lib/libasan.so.8:/lib/x86_64-linux-gnu/libm.so.6" "$launcher" run --gpu-time off -- \
    sh -c 'echo "$LD_PRELOAD"' 2>/dev/null)
[ "$out" = "$san/usr/lib/libasan.so.8:$lib:/lib/x86_64-linux-gnu/libm.so.6" ] ||
    fail "a sanitizer runtime stays first in LD_PRELOAD: $out"

# An entry already naming the library goes first, once; one that only begins like its name is another file.
libm=/lib/x86_64-linux-gnu/libm.so.6
out=$(LD_PRELOAD="$san$libm $lib" "$launcher" run sh -c 'echo "$LD_PRELOAD"' 2>/dev/null)
[ "$out" = "$san$lib:$libm" ] || fail "the library already preloaded, not first: $out"
out=$(LD_PRELOAD="$san$lib.0" "$launcher" run sh -c 'echo "$LD_PRELOAD"' 2>/dev/null)
[ "$out" = "$san$lib:$lib.0" ] || fail "an entry that extends the library's name: $out"
ln -s "$lib" "$tmp/libct-link.so"
out=$(LD_PRELOAD="$san$libm:$tmp/libct-link.so" "$launcher" run sh -c 'echo "$LD_PRELOAD"' 2>/dev/null)
[ "$out" = "$san$tmp/libct-link.so:$libm" ] || fail "a link to the library: $out"

# Installed under a path with a space: LD_PRELOAD cannot hold it.  The launcher says so and runs nothing
# (125), unless LD_PRELOAD names the library through a link without one.
mkdir -p "$tmp/with space/launcher" "$tmp/with space/preload/.libs"
cp "$launcher" "$tmp/with space/launcher/cudatrace" && cp "$lib" "$tmp/with space/preload/.libs/libcudatrace.so" || exit 99
"$tmp/with space/launcher/cudatrace" run -o "$tmp/space.ctrace" "$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" \
    >"$tmp/space.out" 2>"$tmp/space.err"
rc=$?
[ "$rc" = 125 ] || fail "library path with a space: exit $rc, expected 125"
grep -q "^cudatrace: the library's path has a space in it, which LD_PRELOAD cannot hold" "$tmp/space.err" ||
    fail "library path with a space: message: $(cat "$tmp/space.err")"
[ -s "$tmp/space.out" ] || [ -e "$tmp/space.ctrace" ] && fail "library path with a space: the command ran"
ln -s "$tmp/with space/preload/.libs/libcudatrace.so" "$tmp/libct-space-link.so"
LD_PRELOAD="$san$tmp/libct-space-link.so" "$tmp/with space/launcher/cudatrace" run -o "$tmp/space.ctrace" \
    "$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" >"$tmp/space.out" 2>"$tmp/space.err"
[ $? = 0 ] && [ -s "$tmp/space.ctrace" ] || fail "library path with a space, through a link: $(cat "$tmp/space.err")"

# A template the library would refuse is refused at once (not by every process, falling back); one whose
# variable is unset here may expand in the command.
"$launcher" run -o 'run-%r.ctrace' true 2>"$tmp/tmpl.err"
[ $? = 125 ] && grep -q "^cudatrace: --output wants a file name template (%p pid, %h host, %q{VAR} variable VAR, %% a %), not 'run-%r.ctrace'$" "$tmp/tmpl.err" ||
    fail "bad -o template: $(cat "$tmp/tmpl.err")"
"$launcher" run -o 'run-%q{RANK' true 2>/dev/null
[ $? = 125 ] || fail "unterminated %q{ in -o: not 125"
# an unknown option: getopt's message names the launcher, as its own messages do
"$launcher" run --version true 2>"$tmp/opt.err"
[ $? = 125 ] && grep -q "^cudatrace run: unrecognized option '--version'" "$tmp/opt.err" ||
    fail "unknown option: $(cat "$tmp/opt.err")"
out=$(env -u CT_UNSET_HERE "$launcher" run -o '%q{CT_UNSET_HERE}' sh -c 'echo "$CUDATRACE_OUTPUT"')
[ "$out" = '%q{CT_UNSET_HERE}' ] || fail "-o of a variable unset in the launcher: $out"

# Exit status, and a traced sample.
"$launcher" run -o "$tmp/a.ctrace" -- "$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" >"$tmp/a.out" 2>"$tmp/a.err"
[ $? = 0 ] && [ -s "$tmp/a.ctrace" ] || fail "traced sample: $(cat "$tmp/a.err")"
"$launcher" run sh -c 'exit 3'
[ $? = 3 ] || fail "exit status 3"
"$launcher" run --stats sh -c 'exit 4' 2>/dev/null
[ $? = 4 ] || fail "exit status 4 with --stats"
# The reader of --stats' lines gone before they come: still the command's status, not death by SIGPIPE.
{ "$launcher" run --stats sh -c 'sleep 0.3; exit 5' 2>&1; echo $? >"$tmp/pipe.rc"; } | true
[ "$(cat "$tmp/pipe.rc")" = 5 ] || fail "exit status 5 with --stats and no reader: $(cat "$tmp/pipe.rc")"
# The same when the command cannot be run: the launcher's message has no reader, the status is still 127.
{ sleep 0.3; "$launcher" run --stats "$tmp/no-such-command" 2>&1; echo $? >"$tmp/pipe.rc"; } | true
[ "$(cat "$tmp/pipe.rc")" = 127 ] || fail "exit status 127 with --stats and no reader: $(cat "$tmp/pipe.rc")"

# Death by a signal, reproduced (143 = 128 + SIGTERM as the shell sees it).
"$launcher" run sh -c 'kill -TERM $$'
[ $? = 143 ] || fail "SIGTERM death"
"$launcher" run --stats sh -c 'kill -USR1 $$' 2>/dev/null
[ $? = 138 ] || fail "SIGUSR1 death with --stats"
# A signal sent to the launcher reaches the command (which dies of it: so does the launcher).
"$launcher" run --stats -o "$tmp/sig-%p.ctrace" sh -c "\"$samples/vectoradd_drv\" \"$CT_TOP_SRCDIR/tests/samples\" >/dev/null; exec sleep 30" \
    >"$tmp/sig.out" 2>"$tmp/sig.err" &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    ls "$tmp"/sig-*.ctrace >/dev/null 2>&1 && break
    sleep 0.2
done
sleep 0.3
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 143 ] || fail "signal passed on: exit $rc ($(cat "$tmp/sig.err"))"
grep -q '^cudatrace: --stats: 1 trace file$' "$tmp/sig.err" || fail "--stats after a signal: $(cat "$tmp/sig.err")"

# --stats: every file of the run (two processes under a shell), one summary.
"$launcher" run --stats -o "$tmp/st-%p.ctrace" sh -c "\"$samples/vectoradd_drv\" \"$CT_TOP_SRCDIR/tests/samples\"; \"$samples/nvtx_drv\"" \
    >"$tmp/st.out" 2>"$tmp/st.err" || fail "--stats run: exit $? ($(cat "$tmp/st.err"))"
grep -q '^cudatrace: --stats: 2 trace files$' "$tmp/st.err" || fail "--stats files: $(cat "$tmp/st.err")"
[ "$(ls "$tmp"/st-*.ctrace | wc -l)" = 2 ] || fail "--stats: trace files"
grep -q '^nvtx_drv: 12 launches$' "$tmp/st.out" || fail "--stats: the program's output"
grep -q '^Pids,"[0-9]*, [0-9]*"$' "$tmp/st.out" || fail "--stats summary of both: $(grep -A3 '# header' "$tmp/st.out")"
grep -q '^# nvtx$' "$tmp/st.out" && grep -q ',PushPop,:forward$' "$tmp/st.out" || fail "--stats: no nvtx table"
grep -q ',cuLaunchKernel$' "$tmp/st.out" || fail "--stats: no api table"
ls /tmp/cudatrace-files.* 2>/dev/null | grep -q . && echo "note: leftover file lists in /tmp (other runs?)"
# A newline in a trace file's name (the list has it escaped): still one file; so with a newline followed by
# '/' (a directory whose name ends in a newline), and with a backslash followed by 'n', which is no newline.
nl='
'
mkdir "$tmp/dir$nl"
for name in "$tmp/nl${nl}name-%p.ctrace" "$tmp/dir$nl/t-%p.ctrace" "$tmp/bs\\name-%p.ctrace"; do
    "$launcher" run --stats -o "$name" "$samples/vectoradd_drv" "$CT_TOP_SRCDIR/tests/samples" >"$tmp/nl.out" 2>"$tmp/nl.err" ||
        fail "--stats, a newline in the name: exit $? ($(cat "$tmp/nl.err"))"
    grep -q '^cudatrace: --stats: 1 trace file$' "$tmp/nl.err" || fail "--stats, a newline in the name: $(cat "$tmp/nl.err")"
    grep -q ',cuLaunchKernel$' "$tmp/nl.out" || fail "--stats, a newline in the name: no summary"
done

# --capture nvtx: only the "step" ranges.
"$launcher" run --capture nvtx:step -o "$tmp/cap.ctrace" "$samples/nvtx_drv" >/dev/null 2>&1 || fail "--capture nvtx run"
[ "$("$ctdump" "$tmp/cap.ctrace" | grep -c '^call .* name=cuLaunchKernel ')" = 9 ] || fail "--capture nvtx:step launches"

# cudatrace report = cudatrace-report.
"$launcher" report info -f csv "$tmp/a.ctrace" | grep -q '^Complete,yes$' || fail "cudatrace report info"

# Its own errors.
"$launcher" run 2>/dev/null
[ $? = 125 ] || fail "no command: not 125"
"$launcher" run --stacks=some ls 2>/dev/null
[ $? = 125 ] || fail "bad --stacks: not 125"
"$launcher" run --python-stacks=on ls 2>"$tmp/py.err"
[ $? = 125 ] || fail "bad --python-stacks: not 125"
grep -q "python-stacks takes auto or off, not 'on'" "$tmp/py.err" || fail "bad --python-stacks: message"
"$launcher" run ./no-such-program 2>/dev/null
[ $? = 127 ] || fail "missing command: not 127"
"$launcher" run --stats "$tmp" 2>/dev/null
[ $? = 126 ] || fail "a directory as command: not 126"
"$launcher" --help | grep -q '^Usage: cudatrace run' || fail "--help"
exit 0
