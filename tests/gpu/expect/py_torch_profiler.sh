# Expectations for tests/samples/py_torch_profiler.py: torch.profiler run inside a traced program still reports
# its CUDA kernels (the runner checks that stdout, which says so, and the exit status match the untraced run).
# The tracer timed the first steps with CUPTI's activity records and stepped back to timing events when the
# program took CUPTI: its trace says so, and holds the first steps' kernels timed by CUPTI.
# shellcheck shell=bash disable=SC2154 # $dir, $python, $report: set by the runner
expect_calls "at least 40 kernel launches" -ge 40 family=launch
traces_in files "$dir"
why=$("$report" info -f json "${files[@]}" 2>/dev/null | "$python" -c '
import json, sys
print(" ".join(sorted({f["gpu"].get("GPU time", "") for f in [json.load(sys.stdin)]})))' 2>&1)
note "GPU time: $why"
case $why in
*"the program uses CUPTI"*) pass "the trace says GPU time stepped back to events when the program took CUPTI" ;;
*) fail "the trace says GPU time stepped back to events when the program took CUPTI" "$why" ;;
esac
expect_value "CUPTI timed the kernels of the steps before torch.profiler" -ge 40 \
    "$("$report" calls -f json "${files[@]}" | "$python" -c '
import json, sys
print(sum(1 for l in sys.stdin if "\"gpu\"" in l))')"
