#!/bin/sh
# dlsym clients (interpose-dlsym.c), bound to dlsym@GLIBC_2.34 and to dlsym@GLIBC_2.2.5: driver functions by
# handle, RTLD_DEFAULT and RTLD_NEXT are our trampolines; other names and RTLD_NEXT semantics are untouched.
. "$CT_TOP_SRCDIR/tests/integration/interpose-lib.sh"
for prog in interpose-dlsym interpose-dlsym-old; do
    run_pair $prog "$bin/$prog"
    grep -q DIFFERENT "$tmp/$prog.traced" && fail "$prog: $(grep DIFFERENT "$tmp/$prog.traced")"
    grep -q '^handle cuNoSuchFunction: absent (error set)$' "$tmp/$prog.traced" || fail "$prog: unknown name"
    expect_count $prog 1 '^call .* name=cuInit variant=cuInit result=0 '
    expect_count $prog 1 '^counted api=cuDeviceGetCount count=1$' # of the default set: counted, not timed
    expect_count $prog 0 '^untraced '
done
exit 0
