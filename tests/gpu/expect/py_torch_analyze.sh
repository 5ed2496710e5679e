# Expectations for tests/samples/py_torch_analyze.py (a .item() each step at its ITEM line, a torch.empty of
# a new size each step at its EMPTY line): analyze, grouped by Python line, reports both at their lines.
# Sourced by tests/gpu/run-gpu-tests.
# sample-env: CUDATRACE_STACKS=all
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
. "$expectdir/analyze_report.inc"
expect_calls "allocations" -ge 10 family=alloc
analyze_lines
if stacks_built_in && analyze_run analyze --group-by python; then
    analyze_check analyze "sync: the .item() at its ITEM line blocks the host each step" '
assert ("main", item) in sites("sync"), sites("sync")'
    analyze_check analyze "churn: the torch.empty at its EMPTY line allocates each step" '
assert ("main", empty) in sites("churn"), sites("churn")'
    analyze_check analyze "the findings come the largest estimated time lost first" '
lost = [f["lost_ns"] for f in r["findings"]]
assert lost == sorted(lost, reverse=True), lost'
fi
