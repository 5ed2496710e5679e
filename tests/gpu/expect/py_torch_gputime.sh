# Expectations for tests/samples/py_torch_gputime.py: GPU time against torch.profiler.  One more untraced run
# profiles the measured training steps with torch.profiler (CUDA activity); one more traced run times every
# launch of the same steps (CUDATRACE_GPU_TIME=all, CUDATRACE_CAPTURE=profiler: the steps are between
# cudaProfilerStart and Stop).  For the 5 kernels of most profiler time that both name (at least 3),
# cudatrace's gpu_kernels Avg is within 10% of torch.profiler's.
# shellcheck shell=bash disable=SC2154 # $dir, $table: set by the runner and gpu_table
expect_calls "at least 50 GEMM (non-PyTorch) kernel launches" -ge 50 family=launch \
    'kernel!=*at::native*' 'kernel!=*at6native*'
expect_no_failed_calls
if untraced_again profile PY_TORCH_GPUTIME_PROFILE="$dir/profile.json" &&
    traced_again gpu_all CUDATRACE_GPU_TIME=all CUDATRACE_CAPTURE=profiler &&
    gpu_table gpu_all gpu_kernels; then
    compare_profile "$table" "$dir/profile.json" 5 "$dir/compare.tsv"
    expect_value "at least 3 of the kernels of most torch.profiler time found in gpu_kernels by name" -ge 3 \
        "$(wc -l <"$dir/compare.tsv")"
    note "$(printf '%12s %12s %7s  %s' 'profiler ns' 'cudatrace ns' 'diff' kernel)"
    while IFS=$'\t' read -r prof ct name; do
        note "$(awk -v p="$prof" -v c="$ct" -v n="${name:0:90}" \
            'BEGIN { printf "%12.1f %12.1f %+6.1f%%  %s", p, c, 100 * (c - p) / p, n }')"
        expect_near "gpu_kernels Avg within 10% of torch.profiler's: ${name:0:60}" "$ct" "$prof" 10
    done <"$dir/compare.tsv"
fi
