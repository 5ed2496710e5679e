#!/bin/sh
# Programs built with -fsanitize=address or -fsanitize=thread, traced: the sanitizer's runtime first in
# LD_PRELOAD (it must be, to intercept), libcudatrace.so second.  The runtime calls the tracer's exported
# dlsym while it starts, before its own interceptors work (this once crashed TSan at start-up).  Each sample
# must print and exit as untraced, and its trace must hold its calls.  Skips a sanitizer the compiler lacks.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
ptx=$CT_TOP_SRCDIR/tests/samples
ran=0

# check SAMPLE RUNTIME_NAME (libasan, libtsan) [VAR=VALUE...]: VAR=VALUE for the traced run
check() {
    name=$1 lib=$2
    prog=$bin/$1
    shift 2
    rt=$(ldd "$prog" 2>/dev/null | awk -v n="$lib" '$1 ~ "^" n "\\.so" { print $3 }')
    if [ -z "$rt" ]; then
        echo "SKIP: $name is not linked with $lib (the compiler has no working sanitizer of that kind)"
        return
    fi
    LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR "$prog" "$ptx" >"$tmp/$name.plain" 2>"$tmp/$name.plain.err"
    want=$?
    [ "$want" = 0 ] || fail "$name untraced: exit $want ($(tail -n 5 "$tmp/$name.plain.err"))"
    rm -f "$tmp/$name.ctrace" # a sample checked again writes this name, not NAME.1.ctrace
    env "$@" CUDATRACE_OUTPUT=$tmp/$name.ctrace LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR LD_PRELOAD="$rt $CT_PRELOAD" \
        "$prog" "$ptx" >"$tmp/$name.traced" 2>"$tmp/$name.traced.err"
    got=$?
    [ "$got" = "$want" ] || fail "$name traced: exit $got, untraced $want ($(tail -n 5 "$tmp/$name.traced.err"))"
    diff -u "$tmp/$name.plain" "$tmp/$name.traced" || fail "$name: output differs traced"
    grep -q 'Sanitizer' "$tmp/$name.traced.err" && fail "$name traced: a sanitizer report: $(head -n 20 "$tmp/$name.traced.err")"
    "$ctdump" "$tmp/$name.ctrace" >"$tmp/$name.dump" || fail "$name: ctdump exit $?"
    for api in cuInit cuModuleLoad cuMemAlloc cuLaunchKernel cuMemFree; do
        grep -q "^call .*name=$api" "$tmp/$name.dump" || fail "$name: no $api call in the trace"
    done
    grep -q '^end ' "$tmp/$name.dump" || fail "$name: no end record"
    ran=$((ran + 1))
}

check vectoradd_asan libasan
# Without call stacks: libunwind's per-thread cache, freed at thread exit after TSan has let go of the
# thread, crashes in TSan's mutex interceptor (libunwind 1.6; see doc/contributing.md).
check ctx_tsan libtsan CUDATRACE_STACKS=none
# The writer draining every millisecond meets the worker's new ring, the queued metadata and the context's
# GPU timing pool right after their lock-free hand-off, which TSan sees only as src/recorder/tsan.h tells
# it: without that, every one of these runs reported a race (with one hand-off left out, the worker's ring,
# 19 of 20 runs with GPU time off did).
check ctx_tsan libtsan CUDATRACE_STACKS=none CUDATRACE_FLUSH_MS=1
check ctx_tsan libtsan CUDATRACE_STACKS=none CUDATRACE_FLUSH_MS=1 CUDATRACE_GPU_TIME=off
check ctx_tsan libtsan CUDATRACE_STACKS=none CUDATRACE_FLUSH_MS=1 CUDATRACE_GPU_TIME=off
[ "$ran" -gt 0 ] || { echo "SKIP: no sanitizer works with this compiler"; exit 77; }
echo "traced $ran sanitized samples"
