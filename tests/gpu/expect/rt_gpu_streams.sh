# Expectations for tests/samples/rt_gpu_streams.cu: timing every launch (CUDATRACE_GPU_TIME=all) leaves two
# streams' kernels running side by side.  The overlap is measured by the kernels' own %globaltimer stamps:
# traced it must be at least 90% of the untraced figure, which must show the streams overlapping at all.
# shellcheck shell=bash disable=SC2154 # $dir, $table: set by the runner and gpu_table
# sample-env: CUDATRACE_GPU_TIME=all
untraced_overlap=$(figure untraced overlap) traced_overlap=$(figure traced overlap)
note "the two streams' kernels overlap: untraced ${untraced_overlap:-?}, traced with GPU_TIME=all ${traced_overlap:-?}"
expect_float "untraced, the streams run concurrently (overlap at least 0.5)" "$untraced_overlap" -ge 0.5
expect_float "traced, the overlap is at least 90% of the untraced one" "$traced_overlap" -ge \
    "$(awk -v u="${untraced_overlap:-1}" 'BEGIN { print 0.9 * u }')"
expect_calls "17 launches of streamSpin (1 warm-up, 8 per stream)" -eq 17 'kernel=streamSpin(*'
expect_value "the launches go to 2 streams" -eq 2 "$(distinct stream 'kernel=streamSpin(*')"
if gpu_table traced gpu_kernels; then
    expect_value "gpu_kernels: 17 instances of streamSpin" -eq 17 "$(table_value "$table" Instances streamSpin)"
    note "gpu_kernels: streamSpin Avg $(table_value "$table" Avg streamSpin) ns (spins 200000 ns)"
fi
expect_no_failed_calls
