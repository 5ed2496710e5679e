# Expectations for tests/samples/py_torchrun_nccl.py: two ranks under torchrun with NCCL, one GPU each (the
# sample skips with fewer than two).  The runner's traced run (LD_PRELOAD) is checked first; then the job runs
# again as `cudatrace run -o .../trace-%q{RANK}-%p.ctrace -- torchrun --standalone --nproc_per_node=2 ...`
# with every launch timed (--gpu-time all), and its traces are checked rank by rank: complete, NCCL's own
# driver calls (VMM or IPC, streams) recorded, NCCL kernels in each rank's GPU-time table, both ranks in the
# merged summary and in --by rank.
# shellcheck shell=bash disable=SC2154 # $dir, $report, $launcher, $python, $pydir, $limit: set by the runner
traces_in files "$dir"
expect_value "a trace per rank (and the launching processes', if they called CUDA)" -ge 2 "${#files[@]}"
expect_value "launches from 2 processes" -eq 2 "$(distinct pid family=launch)"
# Failed launches or copies would be a change of behaviour; NCCL's probing calls may fail by design.
expect_calls "no failed launch" -eq 0 family=launch result!=0
expect_calls "no failed copy" -eq 0 family=copy result!=0
note "failed calls (NCCL probes): $(calls result!=0) ($("$python" -c 'import json,sys,collections
c = collections.Counter(json.loads(l)["name"] for l in open(sys.argv[1]) if l.strip() and json.loads(l).get("result", 0) != 0)
print(", ".join("%s %d" % kv for kv in c.most_common(6)))' "$CALLS"))"

# --- the job through the launcher -----------------------------------------------------------------------
torchrun=(torchrun)
command -v torchrun >/dev/null || torchrun=("$python" -m torch.distributed.run)
ldir=$dir/launcher
mkdir -p "$ldir"
(cd "$dir" && env ${sample_env[@]+"${sample_env[@]}"} timeout -k 10 "$limit" "$launcher" run --gpu-time all \
    -o "$ldir/trace-%q{RANK}-%p.ctrace" -- "${torchrun[@]}" --standalone --nproc_per_node=2 \
    "$pydir/py_torchrun_nccl.py") >"$dir/launcher.out" 2>"$dir/launcher.err"
rc=$?
expect_value "cudatrace run -- torchrun --nproc_per_node=2 ... exits 0" -eq 0 "$rc"
[ "$rc" -eq 0 ] || note "launcher stderr: $(last_line "$dir/launcher.err")"
if cmp -s "$dir/untraced.out" "$dir/launcher.out"; then
    pass "through the launcher: the same stdout as untraced"
else
    fail "through the launcher: the same stdout as untraced" \
        "$(diff "$dir/untraced.out" "$dir/launcher.out" | grep '^[<>]' | head -2 | tr '\n' ' ')"
fi
traces_in rank_files "$ldir" 'trace-[0-9]*-*.ctrace'
traces_in lfiles "$ldir"
expect_value "one trace file per rank (trace-0-PID, trace-1-PID)" -eq 2 \
    "$(printf '%s\n' "${rank_files[@]##*/}" | grep -cE '^trace-[01]-[0-9]+\.ctrace$')"
# Every rank's trace complete: nothing lost (not even at shutdown), no pointer handed back untraced.
lost=0 untraced=0
for f in "${rank_files[@]}"; do
    if ! "$report" info --format json "$f" >"$ldir/info.json" 2>"$ldir/info.err"; then
        fail "cudatrace-report info ${f##*/}" "$(last_line "$ldir/info.err")"
        continue
    fi
    n=$(query total "$ldir/info.json" counts Count 'What=records lost')
    lost=$((lost + n))
    n=$(query total "$ldir/info.json" counts Count 'What=pointers handed back untraced')
    untraced=$((untraced + n))
done
expect_value "the ranks' traces: 0 records lost" -eq 0 "$lost"
expect_value "the ranks' traces: 0 pointers handed back untraced" -eq 0 "$untraced"

# The merged summary and --by rank, read by one script: a line `KEY VALUE` per fact.
"$report" summary --format json "${lfiles[@]}" >"$ldir/summary.json" 2>"$ldir/report.err"
"$report" summary --format json --by rank "${lfiles[@]}" >"$ldir/by_rank.json" 2>>"$ldir/report.err"
"$python" - "$ldir/summary.json" "$ldir/by_rank.json" >"$ldir/facts" 2>>"$ldir/report.err" <<'PY'
import json, sys
merged, by = (json.load(open(f)) for f in sys.argv[1:3])
print("merged_ranks", int(str(merged["header"].get("Ranks", "")).replace(" ", "") == "0,1"))
vmm = {"cuMemCreate", "cuMemMap", "cuMemAddressReserve", "cuMemSetAccess", "cuMemExportToShareableHandle",
       "cuMemImportFromShareableHandle"}
ipc = {"cuIpcGetMemHandle", "cuIpcOpenMemHandle", "cuIpcCloseMemHandle", "cuIpcGetEventHandle",
       "cuIpcOpenEventHandle"}
streams = {"cuStreamCreate", "cuStreamCreateWithPriority", "cuStreamWaitEvent", "cuEventRecord",
           "cuEventRecordWithFlags"}
for r in (0, 1):
    def table(kind):
        keys = [k for k in by if k.startswith(f"{kind}[rank {r} (")]
        return by[keys[0]] if len(keys) == 1 else []
    names = {row["Name"] for row in table("api")}
    print(f"api_{r}", int(bool(names)))
    print(f"vmm_ipc_{r}", len(names & (vmm | ipc)))
    print(f"streams_{r}", len(names & streams))
    print(f"vmm_ipc_names_{r}", ",".join(sorted(names & (vmm | ipc))) or "-")
    nccl = [row["Name"] for row in table("gpu_kernels") if "nccl" in row["Name"].lower()]
    print(f"nccl_kernels_{r}", len(nccl))
    print(f"nccl_kernel_{r}", (nccl[0][:80] if nccl else "-").replace(" ", ""))
print("spread", int(len(by.get("spread", [])) > 0))
PY
fact() { awk -v k="$1" '$1 == k { print $2 }' "$ldir/facts"; }
[ -s "$ldir/report.err" ] && note "report: $(last_line "$ldir/report.err")"
expect_value "merged summary: header Ranks 0, 1" -eq 1 "$(fact merged_ranks)"
expect_value "--by rank: a spread table across the ranks" -eq 1 "$(fact spread)"
for r in 0 1; do
    expect_value "--by rank: rank $r has its api table" -eq 1 "$(fact "api_$r")"
    expect_value "rank $r: NCCL's VMM or IPC calls recorded ($(fact "vmm_ipc_names_$r"))" -ge 1 "$(fact "vmm_ipc_$r")"
    expect_value "rank $r: stream and event calls recorded" -ge 2 "$(fact "streams_$r")"
    expect_value "rank $r: NCCL kernels in its gpu_kernels table (e.g. $(fact "nccl_kernel_$r"))" -ge 1 \
        "$(fact "nccl_kernels_$r")"
done
