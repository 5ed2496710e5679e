# Expectations for tests/samples/rt_graph.cu.
# Sourced by tests/gpu/run-gpu-tests with the helpers of tests/gpu/checks.sh (filters: KEY=GLOB).
# shellcheck shell=bash
expect_calls "3 launches of graphStep captured, grid 32, block 256" -eq 3 'kernel=graphStep(*' grid=32,1,1 block=256,1,1
expect_calls "1 stream capture begun" -eq 1 'name=cuStreamBeginCapture*'
expect_calls "1 stream capture ended" -eq 1 name=cuStreamEndCapture
expect_calls "1 graph instantiated" -eq 1 'name=cuGraphInstantiate*'
expect_calls "10 graph launches" -eq 10 family=launch kind=graph
expect_calls "1 device allocation of 32768 bytes" -eq 1 family=alloc kind=device bytes=32768
expect_freed bytes=32768
expect_calls "1 D2H copy of 32768 bytes" -eq 1 "$D2H" bytes=32768
expect_no_failed_calls
# GPU time as by default (CUPTI's activity records): the graph's kernels each timed by name, 3 for each of
# the 10 launches, and no row for the graph as a whole.
if gpu_table traced gpu_kernels; then
    expect_value "gpu_kernels: graphStep timed 30 times (3 in each graph launch)" -eq 30 \
        "$(table_value "$table" Instances 'graphStep*')"
    expect_value "gpu_kernels: no row for a whole graph" -eq 0 "$(grep -c 'CUDA graph' "$table")"
fi
