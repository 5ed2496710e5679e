# Expectations for tests/samples/py_torch_gputime.py: GPU time against torch.profiler.  One more untraced run
# profiles the measured training steps with torch.profiler (CUDA activity); one more traced run times every
# launch of the same steps (CUDATRACE_GPU_TIME=all, CUDATRACE_CAPTURE=profiler: the steps are between
# cudaProfilerStart and Stop), from CUPTI's activity records as torch.profiler's are.  For the 10 kernels of
# most profiler time that both name (at least 6), cudatrace's gpu_kernels Avg is within 5% of
# torch.profiler's, plus 0.5 us for the runs' differences on kernels of a few microseconds; and again with
# timing events (CUDATRACE_GPU_TIME=events), noted only: a span of events includes about 3.8 us more than
# the kernel's own time on the H100 (doc/gpu-time.md).
# shellcheck shell=bash disable=SC2154 # $dir, $table: set by the runner and gpu_table
slack_ns=500
expect_calls "at least 50 GEMM (non-PyTorch) kernel launches" -ge 50 family=launch \
    'kernel!=*at::native*' 'kernel!=*at6native*'
expect_no_failed_calls
if untraced_again profile PY_TORCH_GPUTIME_PROFILE="$dir/profile.json" &&
    traced_again gpu_all CUDATRACE_GPU_TIME=all CUDATRACE_CAPTURE=profiler &&
    gpu_table gpu_all gpu_kernels; then
    compare_profile "$table" "$dir/profile.json" 10 "$dir/compare.tsv"
    expect_value "at least 6 of the 10 kernels of most torch.profiler time found in gpu_kernels by name" -ge 6 \
        "$(wc -l <"$dir/compare.tsv")"
    note "$(printf '%12s %12s %7s  %s' 'profiler ns' 'cudatrace ns' 'diff' kernel)"
    while IFS=$'\t' read -r prof ct name; do
        note "$(awk -v p="$prof" -v c="$ct" -v n="${name:0:90}" \
            'BEGIN { printf "%12.1f %12.1f %+6.1f%%  %s", p, c, 100 * (c - p) / p, n }')"
        expect_near "gpu_kernels Avg within 5% + ${slack_ns} ns of torch.profiler's: ${name:0:60}" \
            "$ct" "$prof" 5 "$slack_ns"
    done <"$dir/compare.tsv"
fi
if traced_again gpu_events CUDATRACE_GPU_TIME=events CUDATRACE_CAPTURE=profiler && gpu_table gpu_events gpu_kernels &&
    [ -s "$dir/profile.json" ]; then
    compare_profile "$table" "$dir/profile.json" 10 "$dir/compare-events.tsv"
    while IFS=$'\t' read -r prof ct name; do
        note "$(awk -v p="$prof" -v c="$ct" -v n="${name:0:70}" \
            'BEGIN { printf "events: %12.1f %12.1f %+6.1f%%  %s", p, c, 100 * (c - p) / p, n }')"
    done <"$dir/compare-events.tsv"
fi
# The harness's own traced run, GPU time as by default (CUPTI's activity records): every kernel timed, no
# estimate; the Chrome export is JSON with a GPU process, its stream tracks, a slice per span and a flow from
# each call.
if gpu_table traced gpu_kernels; then
    expect_value "default: gpu_kernels totals are exact (no estimate)" -eq 0 \
        "$(grep -c 'Total Time (ns, est.)' "$table")"
    expect_value "default: gpu_kernels has no Timed column" -eq 0 "$(grep -c ',Timed,' "$table")"
    cp "$table" "$dir/summary-gpu-kernels.csv"
fi
traces_in files "$dir"
if "$report" export --format chrome -o "$dir/traced.chrome.json" "${files[@]}" 2>"$dir/chrome.err"; then
    chrome=$("$python" - "$dir/traced.chrome.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in ev if e.get("ph") == "M" and "name" in e.get("args", {})}
gpu_pids = {e["pid"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"
            and e["args"]["name"].startswith("GPU ")}
spans = [e for e in ev if e.get("ph") == "X" and e.get("cat", "").startswith("gpu")]
starts = {e["id"] for e in ev if e.get("ph") == "s"}
ends = {e["id"] for e in ev if e.get("ph") == "f"}
tracks = {(e["pid"], e["tid"]) for e in spans}
ok = (gpu_pids and spans and all(e["pid"] in gpu_pids for e in spans)
      and all(names.get(t, "").startswith("stream ") for t in tracks) and starts == ends and len(ends) == len(spans))
print("%d %d %d %d" % (int(bool(ok)), len(spans), len(tracks), len(ends)))
PY
)
    read -r valid nspans ntracks nflows <<<"$chrome"
    note "Chrome export: $nspans GPU slices on $ntracks stream tracks, $nflows flows"
    expect_value "the Chrome export's GPU process, stream tracks, slices and flows are consistent" -eq 1 "${valid:-0}"
else
    fail "cudatrace-report export --format chrome" "$(last_line "$dir/chrome.err")"
fi
