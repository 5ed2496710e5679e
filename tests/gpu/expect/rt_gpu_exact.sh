# Expectations for tests/samples/rt_gpu_exact.cu: GPU time from CUPTI's activity records (the default) launch
# by launch against the kernels' own %globaltimer spans.  For each kernel (2, 10 and 100 us; back to back and
# one at a time), the trace's span of launch i less the kernel's own is about the same for every launch: the
# kernel's launch and retirement of its one block, which its own stamps cannot see (about 0.9 us on the H100,
# doc/gpu-time.md).  Checked: the median difference between 0 and 2 us, and its p10-p90 spread under 0.2 us.
# shellcheck shell=bash disable=SC2154 # $dir, $python: set by the runner
expect_calls "31 launches of each of the 6 exact kernels (one before its 30)" -eq 186 family=launch 'kernel=exact[0-9]*'
expect_no_failed_calls
for k in exact2us_b2b exact10us_b2b exact100us_b2b exact2us_idle exact10us_idle exact100us_idle; do
    read -r n med spread <<<"$("$python" - "$CALLS" "$dir/traced.figures" "$k" <<'PY'
import json, sys
calls, figures, k = sys.argv[1:]
own = [int(v) for key, v in sorted(l.split() for l in open(figures) if l.startswith(k + "_"))]
ours = [c["gpu"]["duration"] for c in map(json.loads, open(calls))
        if "gpu" in c and c.get("args", {}).get("kernel", "").startswith(k + "(")]
ours = ours[-len(own):]  # the kernel's first launch, before its 30, is not the sample's
d = sorted(a - b for a, b in zip(ours, own))
q = lambda p: d[min(len(d) - 1, int(p * (len(d) - 1) + 0.5))]
print(len(d), q(0.5), q(0.9) - q(0.1)) if d else print(0, 0, 0)
PY
)"
    note "$k: $n launches compared, trace span - kernel's own: median ${med:-?} ns, p10-p90 spread ${spread:-?} ns"
    expect_value "$k: 30 launches compared with the kernel's own span" -eq 30 "${n:-0}"
    expect_value "$k: the trace's span is not shorter than the kernel's own (median difference >= 0)" -ge 0 "${med:--1}"
    expect_value "$k: median difference under 2 us" -lt 2000 "${med:-99999}"
    expect_value "$k: p10-p90 spread of the difference under 0.2 us" -lt 200 "${spread:-99999}"
done
# The clock mapping: a kernel launched onto an idle GPU starts after its launch call began and soon after it
# returned, so its span's start (CUPTI's clock mapped to the trace's) less the call's start on the host is
# small and positive; a mapping off by more than a microsecond would show as a negative least value.
for k in exact2us_idle exact10us_idle exact100us_idle; do
    read -r n lo med hi <<<"$("$python" - "$CALLS" "$k" <<'PY'
import json, sys
calls, k = sys.argv[1:]
d = sorted(c["gpu"]["start"] - c["start"] for c in map(json.loads, open(calls))
           if "gpu" in c and c.get("args", {}).get("kernel", "").startswith(k + "("))
print(len(d), d[0], d[len(d) // 2], d[-1]) if d else print(0, 0, 0, 0)
PY
)"
    note "$k: GPU start - call start over $n launches: least ${lo:-?} ns, median ${med:-?} ns, greatest ${hi:-?} ns"
    expect_value "$k: no GPU span starts more than 1 us before its launch call began" -ge -1000 "${lo:--99999}"
    expect_value "$k: median GPU start within 50 us of its launch call's start" -lt 50000 "${med:-99999}"
done
