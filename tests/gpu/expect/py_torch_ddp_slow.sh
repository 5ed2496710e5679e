# Expectations for tests/samples/py_torch_ddp_slow.py (two DDP ranks, rank 1 slowed by SLOW_MS of GPU sleep
# a step; NCCL with two GPUs, gloo on one): analyze of the ranks' traces names rank 1 the slowest.
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/analyze_report.inc"
traces_in files "$dir"
expect_value "a trace per rank (and the launching process's, if it called CUDA)" -ge 2 "${#files[@]}"
if analyze_run analyze; then
    analyze_check analyze "two ranks, each with GPU busy time and 30 step ranges" '
assert sorted(k["rank"] for k in r["ranks"]) == [0, 1], r["ranks"]
assert all(k["gpu_busy_ns"] > 0 and k["steps"] == 30 for k in r["ranks"]), r["ranks"]'
    analyze_check analyze "the slowest rank is rank 1" 'assert r["slowest_rank"] == 1, r["ranks"]'
    analyze_check analyze "a ranks finding names rank 1" '
f = [f for f in r["findings"] if f["rule"] == "ranks"]
assert f and f[0]["evidence"]["slowest_rank"] == 1 and f[0]["where"].startswith("rank 1 "), f'
fi
