# Expectations for tests/samples/rt_threads.cu.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "32 launches of threadScale" -eq 32 'kernel=threadScale(*'
expect_value "the launches come from 8 threads" -eq 8 "$(distinct tid 'kernel=threadScale(*')"
expect_value "the launches go to 8 streams" -eq 8 "$(distinct stream 'kernel=threadScale(*')"
for t in 1 2 3 4 5 6 7 8; do
    bytes=$((4096 * t))
    expect_value "thread $t: 1 allocation, 1 H2D and 1 D2H copy of $bytes bytes" -eq 3 \
        "$(($(calls family=alloc kind=device bytes=$bytes) + $(calls "$H2D" bytes=$bytes) + $(calls "$D2H" bytes=$bytes)))"
done
expect_no_failed_calls
