#!/bin/sh
# bench/train_overhead.py without PyTorch or a GPU: its quantiles (R's type 7, as bench/quantile.h), the
# order of its blocks, the arithmetic of its ratios (the tracer's CPU time added to the "on" blocks, taken
# out of the blocks it fell in), its option errors, and the lines --dry-run prints; run-train-overhead's
# mode errors and the commands it would run.  Timings are never checked.
set -u
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
BENCH=$CT_TOP_SRCDIR/bench

PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$BENCH "$PY" -c '
import train_overhead as t
q = t.quantile
assert q([1.0], 0.5) == 1.0 and q([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
assert abs(q([1.0, 2.0, 3.0, 4.0], 0.25) - 1.75) < 1e-12 and abs(q([1.0, 2.0, 3.0, 4.0], 0.75) - 3.25) < 1e-12
assert t.schedule(3) == [False, True, True, False, False, True]
# two pairs: wall 1.0 s off, 1.1 s on; cpu 0.9 s off (0.1 s of it the tracer), 1.0 s on (0.2 s the tracer);
# the tracer ran 0.6 s in all: 0.3 s per on block
blocks = [(False, 1.0, 0.9, 0.1), (True, 1.1, 1.0, 0.2), (True, 1.1, 1.0, 0.2), (False, 1.0, 0.9, 0.1)]
f = t.summarize(blocks, 0.6, 10)
close = lambda a, b: abs(a - b) < 1e-9
assert close(f["train_off_ms"], 100.0) and close(f["train_on_ms"], 110.0) and close(f["train_writer_ms"], 300.0), f
assert close(f["train_ratio"], 1.4) and close(f["train_ratio_q1"], 1.4) and close(f["train_ratio_q3"], 1.4), f
assert close(f["train_cpu_ratio"], (1.0 - 0.2 + 0.3) / (0.9 - 0.1)), f
assert f["train_ratios"] == [f["train_ratio"]] * 2, f
u = t.summarize([(False, 2.0, 2.0, 0.0), (True, 1.0, 1.0, 0.0)], None, 1)  # untraced: no tracer
assert close(u["train_ratio"], 0.5) and u["train_writer_ms"] == 0.0, u
try:
    t.summarize(blocks[:3], 0.0, 1)
    raise SystemExit("unpaired blocks accepted")
except ValueError:
    pass
' || fail "train_overhead.py arithmetic"

"$PY" "$BENCH/train_overhead.py" --dry-run -p 3 -s 2 -w 1 >"$TMP/out" 2>"$TMP/err" || fail "--dry-run: $(cat "$TMP/err")"
py '
import re, sys
lines = open(sys.argv[1]).read().split()
keys = [l.split("=")[0] for l in lines]
assert keys == ["train_off_ms", "train_on_ms", "train_writer_ms", "train_ratio", "train_ratio_q1", "train_ratio_q3",
                "train_cpu_ratio", "train_cpu_ratio_q1", "train_cpu_ratio_q3", "train_ratios", "train_cpu_ratios"], keys
assert all(re.fullmatch(r"train_[a-z_0-9]+=[0-9.]+(,[0-9.]+)*", l) for l in lines), lines
assert len(lines[-1].split("=")[1].split(",")) == 3 and len(lines[-2].split("=")[1].split(",")) == 3, lines
'
for bad in "-p 0" "-s x" "--heads 3" "--cpu 99999"; do
    "$PY" "$BENCH/train_overhead.py" --dry-run $bad >"$TMP/out" 2>"$TMP/err"
    expect_eq "exit status of train_overhead.py $bad" 2 $?
    grep -q 'train_overhead.py: error: ' "$TMP/err" || fail "train_overhead.py $bad: no error message"
done

bash "$BENCH/run-train-overhead" -n -c -1 -r 1 -p 4 aa stacks-all CUDATRACE_FLUSH_MS=50,CUDATRACE_GPU_TIME=off \
    >"$TMP/out" 2>"$TMP/err" || fail "run-train-overhead -n: $(cat "$TMP/err")"
grep -q '^aa: env  .*train_overhead.py -p 4 -s 10 -w 30$' "$TMP/out" || fail "run-train-overhead: aa runs traced"
grep -q '^stacks-all: env LD_PRELOAD=.*CUDATRACE_CAPTURE=profiler CUDATRACE_STACKS=all .*train_overhead.py' "$TMP/out" ||
    fail "run-train-overhead: stacks-all"
grep -q 'CUDATRACE_CAPTURE=profiler CUDATRACE_FLUSH_MS=50 CUDATRACE_GPU_TIME=off ' "$TMP/out" ||
    fail "run-train-overhead: settings of a NAME=VALUE mode"
bash "$BENCH/run-train-overhead" -n -c -1 -r 1 all-apis-gpuoff >"$TMP/out" 2>&1 || fail "run-train-overhead -n: $(cat "$TMP/out")"
grep -q '^all-apis-gpuoff: env LD_PRELOAD=.*CUDATRACE_CAPTURE=profiler CUDATRACE_APIS=all CUDATRACE_GPU_TIME=off ' "$TMP/out" ||
    fail "run-train-overhead: all-apis-gpuoff"
bash "$BENCH/run-train-overhead" -n -c 0 -r 1 aa >"$TMP/out" 2>&1 || fail "run-train-overhead -n -c 0: $(cat "$TMP/out")"
grep -q '^aa: env  .*train_overhead.py -p 20 -s 10 -w 30 --cpu 0$' "$TMP/out" || fail "run-train-overhead -c 0"
grep -q "the steps' threads pinned to CPU 0" "$TMP/out" || fail "run-train-overhead -c 0: its header"
# --cpu: the dry run pins its one thread (to a CPU it may run on) and measures as before.
cpu=$("$PY" -c 'import os; print(min(os.sched_getaffinity(0)))')
"$PY" "$BENCH/train_overhead.py" --dry-run --cpu "$cpu" -p 2 -s 2 -w 1 >"$TMP/out" || fail "--cpu $cpu exit $?"
grep -q '^train_ratios=[0-9.]*,[0-9.]*$' "$TMP/out" || fail "--cpu $cpu: $(cat "$TMP/out")"
bash "$BENCH/run-train-overhead" -n -c -1 -m -r 1 aa >"$TMP/out" 2>&1 || fail "run-train-overhead -n -m: $(cat "$TMP/out")"
grep -q '^aa: env  .*train_overhead.py -p 20 -s 10 -w 30 --per-step$' "$TMP/out" || fail "run-train-overhead -m"
# --per-step: a block's time is its median step's times the steps.
"$PY" "$BENCH/train_overhead.py" --dry-run --per-step -p 3 -s 5 -w 1 >"$TMP/out" || fail "--per-step exit $?"
grep -q '^train_ratio=[0-9.]*$' "$TMP/out" || fail "--per-step: no train_ratio"
# The summary (quantile.awk): every pair of every round pooled, median and quartiles; the run's own median.
printf '#!/bin/sh\nprintf "train_off_ms=10\\ntrain_on_ms=10.5\\ntrain_writer_ms=0\\ntrain_ratio=1.01\\ntrain_cpu_ratio=1.02\\ntrain_ratios=1.0,1.02,0.98\\ntrain_cpu_ratios=1.0,1.01,0.99\\n"\n' >"$TMP/fakepy"
chmod +x "$TMP/fakepy"
CT_PRELOAD=/dev/null CT_PYTHON=$TMP/fakepy bash "$BENCH/run-train-overhead" -r 2 aa >"$TMP/out" 2>"$TMP/err" ||
    fail "run-train-overhead with a stand-in python: $(cat "$TMP/err")"
grep -q '^wall (on+writer)/off  *aa  *6  *1\.000  *0\.985  *1\.015  *1\.010  *1\.010  *1\.010  *1\.000  *10\.000  *0\.000$' "$TMP/out" ||
    fail "run-train-overhead summary: $(cat "$TMP/out")"
# The range of the processes' medians, and the median over aa's: a stand-in whose ratio grows by 0.01 with
# each process gives aa 1.01, 1.04 and 1.05 (even rounds run the modes reversed), the named mode 1.02, 1.03
# and 1.06: medians 1.04 and 1.03, 0.990 over aa's.
printf '#!/bin/sh\nn=$(($(cat "%s/n" 2>/dev/null || echo 0) + 1)); echo $n >"%s/n"\nprintf "train_off_ms=10\\ntrain_on_ms=10.5\\ntrain_writer_ms=0\\ntrain_ratio=1.0$n\\ntrain_cpu_ratio=1.0$n\\ntrain_ratios=1.0$n\\ntrain_cpu_ratios=1.0$n\\n"\n' "$TMP" "$TMP" >"$TMP/countpy"
chmod +x "$TMP/countpy"
CT_PRELOAD=/dev/null CT_PYTHON=$TMP/countpy bash "$BENCH/run-train-overhead" -r 3 aa all-apis-gpuoff >"$TMP/out" 2>"$TMP/err" ||
    fail "run-train-overhead with a counting stand-in: $(cat "$TMP/err")"
grep -q '^wall (on+writer)/off  *aa  *3  *1\.040  .*  *1\.040  *1\.010  *1\.050  *1\.000  ' "$TMP/out" ||
    fail "run-train-overhead summary, aa: $(cat "$TMP/out")"
grep -q '^wall (on+writer)/off  *all-apis-gpuoff  *3  *1\.030  .*  *1\.030  *1\.020  *1\.060  *0\.990  ' "$TMP/out" ||
    fail "run-train-overhead summary, all-apis-gpuoff: $(cat "$TMP/out")"
# cupti-gpuoff: GPU time off with CUPTI alone injected, and the split of the default's cost it allows: a
# stand-in whose ratio says the mode (untraced 1.00, GPU time off 1.02, CUPTI beside it 1.06, default 1.07).
printf '#!/bin/sh\nr=1.00\n[ -n "${LD_PRELOAD:-}" ] && r=1.07\n[ "${CUDATRACE_GPU_TIME:-}" = off ] && r=1.02\n[ -n "${CUDA_INJECTION64_PATH:-}" ] && r=1.06\nprintf "train_off_ms=10\\ntrain_on_ms=10.5\\ntrain_writer_ms=0\\ntrain_ratio=$r\\ntrain_cpu_ratio=$r\\ntrain_ratios=$r\\ntrain_cpu_ratios=$r\\n"\n' >"$TMP/modepy"
chmod +x "$TMP/modepy"
mkdir -p "$TMP/fb/bench" && : >"$TMP/fb/bench/libcupti_alone.so"
bash "$BENCH/run-train-overhead" -n -c -1 -r 1 cupti-gpuoff >"$TMP/out" 2>&1 || fail "run-train-overhead -n cupti-gpuoff: $(cat "$TMP/out")"
grep -q '^cupti-gpuoff: env LD_PRELOAD=.*CUDATRACE_GPU_TIME=off CUDA_INJECTION64_PATH=[^ ]*/bench/libcupti_alone.so ' "$TMP/out" ||
    fail "run-train-overhead: cupti-gpuoff: $(cat "$TMP/out")"
CT_TOP_BUILDDIR=$TMP/fb CT_PRELOAD=/dev/null CT_PYTHON=$TMP/modepy bash "$BENCH/run-train-overhead" -c -1 -r 1 \
    defaults-gpuoff cupti-gpuoff defaults >"$TMP/out" 2>"$TMP/err" || fail "run-train-overhead cupti-gpuoff: $(cat "$TMP/err")"
grep -q '^the default over GPU time off: +0\.050 = CUPTI beside the tracer (cupti-gpuoff - defaults-gpuoff) +0\.040 + the tracer beyond CUPTI (defaults - cupti-gpuoff) +0\.010$' \
    "$TMP/out" || fail "run-train-overhead: the split of the default's cost: $(cat "$TMP/out")"
mkdir "$TMP/nob"
CT_TOP_BUILDDIR=$TMP/nob CT_PRELOAD=/dev/null CT_PYTHON=$TMP/modepy bash "$BENCH/run-train-overhead" -r 1 cupti-gpuoff \
    >"$TMP/out" 2>"$TMP/err"
expect_eq "exit status of run-train-overhead cupti-gpuoff without libcupti_alone.so" 1 $?
grep -q "no $TMP/nob/bench/libcupti_alone.so: build it first" "$TMP/err" || fail "cupti-gpuoff without it: $(cat "$TMP/err")"
bash "$BENCH/run-train-overhead" -n nonsense >"$TMP/out" 2>"$TMP/err"
expect_eq "exit status of run-train-overhead nonsense" 2 $?
grep -q "not 'nonsense'" "$TMP/err" || fail "run-train-overhead nonsense: no message"
finish
