# Expectations for tests/samples/rt_vectoradd.cu.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash disable=SC2154
# shellcheck source=/dev/null
. "$expectdir/vectoradd.inc"
expect_calls "launch and copies use the legacy default stream variants" -eq 0 \
    'variant=[^ ]*_pt(sz|ds) .* (launch kernel|copy bytes)='
