# Secure-execution mode (issue 34, item 6): in a set-user-ID program (AT_SECURE), the environment belongs to
# a user with fewer rights, so the library reads no CUDATRACE_* variable and traces nothing: no trace file, no
# file list, no NVTX library loaded, no line on stderr, the environment untouched, the program's output and
# exit status its own.  A test cannot run set-user-ID: libatsecure.so, preloaded first, makes getauxval
# answer 1 for AT_SECURE, which works because the library calls getauxval through the PLT.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
samples=$CT_TOP_BUILDDIR/tests/samples
shim=$bin/.libs/libatsecure.so
nvtxcount=$bin/.libs/libnvtxcount.so
[ -e "$shim" ] && [ -e "$nvtxcount" ] || fail "libatsecure.so or libnvtxcount.so not built"
export LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR
san=${CT_TEST_PRELOAD_PREFIX:+$CT_TEST_PRELOAD_PREFIX:}
cd "$tmp" || exit 99

umask 022

# run NAME PRELOAD: the NVTX sample, with every setting a user could point at a file, a mode or a library,
# and a bad value that would be warned about.  Prints the exit status.
run() {
    CUDATRACE_OUTPUT=$tmp/$1.ctrace CUDATRACE_FILE_LIST=$tmp/$1.list CUDATRACE_FILE_MODE=644 CUDATRACE_QUIET=bogus \
        CUDATRACE_NVTX_FORWARD=$nvtxcount NVTX_INJECTION64_PATH=$CT_PRELOAD LD_PRELOAD=$2 \
        "$samples/nvtx_drv" >"$tmp/$1.out" 2>"$tmp/$1.err"
    echo $?
}

rc=$(LD_PRELOAD=$san "$samples/nvtx_drv" 2>"$tmp/plain.err" >"$tmp/plain.out"; echo $?)
[ "$rc" = 0 ] || fail "untraced: exit $rc ($(cat "$tmp/plain.err"))"

# Not secure: the settings are obeyed (the test would prove nothing otherwise).
rc=$(run obeyed "$san$CT_PRELOAD")
[ "$rc" = 0 ] || fail "traced: exit $rc ($(cat "$tmp/obeyed.err"))"
[ -s "$tmp/obeyed.ctrace" ] && [ -s "$tmp/obeyed.list" ] || fail "traced: no trace or no file list"
[ "$(stat -c %a "$tmp/obeyed.ctrace")" = 644 ] || fail "traced: CUDATRACE_FILE_MODE not obeyed"
grep -q '^cudatrace: CUDATRACE_QUIET="bogus"' "$tmp/obeyed.err" || fail "traced: no warning"
grep -q '^nvtxcount: ' "$tmp/obeyed.err" || fail "traced: the NVTX library named was not loaded"

# Secure: none of it.
rc=$(run secure "$san$shim:$CT_PRELOAD")
[ "$rc" = 0 ] || fail "secure: exit $rc ($(cat "$tmp/secure.err"))"
cmp -s "$tmp/plain.out" "$tmp/secure.out" || fail "secure: the program's output differs"
[ -s "$tmp/secure.err" ] && fail "secure: said something on stderr: $(cat "$tmp/secure.err")"
ls "$tmp" | grep -q -e '^secure\.ctrace' -e '^secure\.list' -e '^cudatrace-' && fail "secure: wrote a file: $(ls "$tmp")"

# The environment the program passes on is its own: the library does not make itself NVTX's injection
# library nor name a library to forward to.
out=$(env -u NVTX_INJECTION64_PATH -u CUDATRACE_NVTX_FORWARD LD_PRELOAD="$san$shim:$CT_PRELOAD" \
    sh -c 'echo "${NVTX_INJECTION64_PATH-unset}|${CUDATRACE_NVTX_FORWARD-unset}"')
[ "$out" = "unset|unset" ] || fail "secure: the environment changed: $out"
exit 0
