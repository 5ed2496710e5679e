# Expectations for tests/samples/py_torch_analyze_fixed.py (py_torch_analyze.py's loop without its .item()
# and its new-size torch.empty per step): analyze reports neither line.
# Sourced by tests/gpu/run-gpu-tests.
# sample-env: CUDATRACE_STACKS=all
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
. "$expectdir/analyze_report.inc"
analyze_lines
if stacks_built_in && analyze_run analyze --group-by python; then
    analyze_check analyze "no sync finding at a line of the training loop" '
assert not sites("sync"), sites("sync")'
    analyze_check analyze "no churn finding at a line of the training loop" '
assert not sites("churn"), sites("churn")'
fi
