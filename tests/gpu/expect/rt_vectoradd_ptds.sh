# Expectations for tests/samples/rt_vectoradd.cu, built with --default-stream per-thread.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash disable=SC2154
# shellcheck source=/dev/null
. "$expectdir/vectoradd.inc"
expect_calls "the launch is a per-thread-stream variant (_ptsz)" -eq 1 "variant=[^ ]*_ptsz .*$(re_launch vectorAdd)"
expect_calls "the 3 copies are per-thread-stream variants (_ptds/_ptsz)" -eq 3 \
    'variant=[^ ]*_pt(sz|ds) .* copy bytes=200000 '
