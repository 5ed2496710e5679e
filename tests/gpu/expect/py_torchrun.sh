# Expectations for tests/samples/py_torchrun.py: two ranks under torchrun (gloo, both on GPU 0), traced by
# the runner's LD_PRELOAD and again through the launcher (cudatrace run --stats), the report merging the
# ranks and comparing them (--by rank).
# shellcheck shell=bash disable=SC2154 # $dir, $report, $launcher, $python, $pydir: set by the runner
traces_in files "$dir"
expect_value "a trace per rank (and torchrun's own, if it called CUDA)" -ge 2 "${#files[@]}"
expect_value "launches from 2 processes" -eq 2 "$(distinct pid family=launch)"
"$report" info --format json "${files[@]}" >"$dir/info.json" 2>/dev/null
expect_value "ranks 0 and 1, world size 2, from RANK" -eq 2 \
    "$("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted((v["Rank"], v["World size"], v["Rank from"]) for k, v in d.items() if k.startswith("file[") and v["Rank"] != "") == [(0, 2, "RANK"), (1, 2, "RANK")] and 2 or 0)' "$dir/info.json")"
# Through the launcher: the whole job, --stats summarizing both ranks' files.
mkdir -p "$dir/launcher"
(cd "$dir" && env ${sample_env[@]+"${sample_env[@]}"} timeout -k 10 "$limit" "$launcher" run --stats \
    -o "$dir/launcher/trace-%p.ctrace" -- "$python" "$pydir/py_torchrun.py") >"$dir/launcher.out" 2>"$dir/launcher.err"
rc=$?
expect_value "cudatrace run --stats torchrun ... exits 0" -eq 0 "$rc"
[ "$rc" -eq 0 ] || note "launcher stderr: $(last_line "$dir/launcher.err")"
expect_value "the job's output, then the summary (--stats)" -eq 1 "$(grep -c '^torchrun world=2 sum=' "$dir/launcher.out")"
expect_value "--stats found both ranks' files" -eq 1 "$(grep -c '^cudatrace: --stats: [2-9] trace files$' "$dir/launcher.err")"
expect_value "--stats summary header names ranks 0 and 1" -eq 1 "$(grep -c '^Ranks,"0, 1"$' "$dir/launcher.out")"
traces_in lfiles "$dir/launcher"
"$report" summary --format json --by rank "${lfiles[@]}" >"$dir/by_rank.json" 2>/dev/null
# torchrun's own process, unranked, has a table of its own (host, pid) when it called CUDA.
expect_value "--by rank: an api table per rank and a spread table" -eq 1 \
    "$("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); a=sorted(k for k in d if k.startswith("api[rank ")); print(int(len(a) == 2 and a[0].startswith("api[rank 0 (") and a[1].startswith("api[rank 1 (") and len(d["spread"]) > 0))' "$dir/by_rank.json")"
note "spread, first rows: $("$python" -c 'import json,sys; print("; ".join("%s %s slowest %s" % (r["Kind"], r["Name"][:40], r["Slowest"]) for r in json.load(open(sys.argv[1]))["spread"][:3]))' "$dir/by_rank.json")"
expect_no_failed_calls
