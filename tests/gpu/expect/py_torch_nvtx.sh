# Expectations for tests/samples/py_torch_nvtx.py: torch.cuda.nvtx ranges and emit_nvtx's operator ranges,
# recorded by libcudatrace.so as NVTX injection library.
# shellcheck shell=bash disable=SC2154 # $dir, $report: set by the runner
expect_total "4 'step' ranges (PushPop)" -eq 4 nvtx Instances 'Range=:step' Style=PushPop
expect_total "4 'forward' ranges" -eq 4 nvtx Instances 'Range=:forward'
expect_total "4 'backward' ranges" -eq 4 nvtx Instances 'Range=:backward'
expect_total "emit_nvtx: operator ranges (aten::...)" -ge 5 nvtx Instances 'Range=:aten::*'
traces_in files "$dir"
"$report" calls --format json --range forward "${files[@]}" >"$dir/forward.jsonl" 2>"$dir/forward.err"
expect_value "kernel launches inside 'forward' (calls --range)" -ge 4 "$(query count "$dir/forward.jsonl" family=launch)"
"$report" summary --format json --range backward --section kernels "${files[@]}" >"$dir/backward.json" 2>/dev/null
expect_value "kernels launched inside 'backward' (summary --range)" -ge 4 \
    "$(query total "$dir/backward.json" kernels Launches)"
expect_value "threads named (info)" -ge 1 "$("$report" info --format csv "${files[0]}" | grep -c ',python\|,pt_')"
expect_no_failed_calls
