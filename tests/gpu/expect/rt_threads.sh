# Expectations for tests/samples/rt_threads.cu.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
launches=$(re_launch threadScale)
expect_calls "32 launches of threadScale" -eq 32 "$launches"
expect_value "the launches come from 8 threads" -eq 8 "$(distinct tid "$launches")"
expect_value "the launches go to 8 streams" -eq 8 "$(distinct stream "$launches")"
for t in 1 2 3 4 5 6 7 8; do
    bytes=$((4096 * t))
    expect_value "thread $t: 1 allocation, 1 H2D and 1 D2H copy of $bytes bytes" -eq 3 \
        "$(($(calls "$(re_alloc $bytes device)") + $(calls "$(re_h2d $bytes)") + $(calls "$(re_d2h $bytes)")))"
done
expect_no_failed_calls
