# Expectations for tests/samples/nvtx_drv.c: NVTX 3 (header-only) annotations over driver calls, on the GPU
# as on the simulated driver (tests/integration/nvtx.sh checks the same in more detail).
# shellcheck shell=bash disable=SC2154 # $dir, $report: set by the runner
expect_calls "12 launches" -eq 12 family=launch
expect_total "3 'step' ranges" -eq 3 nvtx Instances 'Range=:step'
expect_total "3 'forward' ranges" -eq 3 nvtx Instances 'Range=:forward'
expect_total "1 'load' range of domain mylib" -eq 1 nvtx Instances 'Range=mylib:load'
expect_total "1 start/end range 'io'" -eq 1 nvtx Instances 'Range=:io' Style=StartEnd
traces_in files "$dir"
"$report" calls --format json --range forward "${files[@]}" >"$dir/forward.jsonl" 2>/dev/null
expect_value "6 launches of kernelF inside 'forward'" -eq 6 "$(query count "$dir/forward.jsonl" family=launch kernel=kernelF)"
expect_value "nothing else inside 'forward'" -eq 6 "$(query count "$dir/forward.jsonl")"
expect_no_failed_calls
# NVTX's injection starts the recorder outside any trampoline: GPU time's own look-ups of libcupti's
# functions must still get libcupti's, or its first collection takes itself for the program and hands CUPTI
# over (it did, and since the spares were freed at the hand-over, the collection then never ended).
expect_value "GPU time stays with CUPTI (nothing said of it on stderr)" -eq 0 "$(grep -c 'GPU time' "$dir/traced.err")"

