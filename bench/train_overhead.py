#!/usr/bin/env python3
"""What tracing costs a real, launch-bound program: a PyTorch training loop (a small transformer encoder,
AdamW), measured inside one process as bench/overhead -p measures launches.

Run it under the tracer with CUDATRACE_CAPTURE=profiler (bench/run-train-overhead does, one process per
mode): after a warm-up, PAIRS pairs of blocks of STEPS training steps alternate tracing off and on
(torch.cuda.profiler.stop()/start(), i.e. cuProfilerStop/cuProfilerStart, which that capture mode obeys),
in the order off-on, on-off, off-on, ... so that a drift falls on both alike; each block ends with
torch.cuda.synchronize().  An "off" block still passes through the tracer's trampolines (a flag test, no
clock, no record).  Untraced, the same toggles give the method's own error (the A/A figure).

The tracer's threads (named cudatrace-*: the writer, GPU time's collector) work for the "on" blocks
whenever they wake: their CPU time over the whole measurement, and a settling pause after it (three default
flush intervals), is added to each "on" block in equal parts, and taken out of the block it fell in.
Prints, as bench/overhead does, `train_<what>=<value>` lines:
  train_off_ms, train_on_ms   medians over the blocks of ms per step
  train_writer_ms             the tracer's threads' CPU time per "on" block
  train_ratio (_q1, _q3)      median and quartiles over the pairs of (on + writer) / off, wall time
  train_cpu_ratio (_q1, _q3)  the same with the process's CPU time per block (every thread of it)
  train_ratios                every pair's wall ratio, comma-separated (run-train-overhead pools them)
  train_cpu_ratios            every pair's CPU ratio
--per-step synchronizes after every step and takes a block's median step (times the steps) as its wall
time.  --cpu N pins, after the warm-up, the threads that run the steps (this one and PyTorch's autograd
threads, named pt_autograd_*) to CPU N, the tracer's threads left free as a program's would be: the VM's
scheduler then moves the loop from core to core no more.  --dry-run does all of it with a stand-in step
(no PyTorch, no GPU) to check the arithmetic and the output.
"""
import argparse
import gc
import os
import sys
import time

SETTLE_S = 0.3  # three flush intervals of the writer (CUDATRACE_FLUSH_MS defaults to 100)


def quantile(sorted_values, p):
    """R's default (type 7): linear interpolation between order statistics, as bench/quantile.h."""
    n = len(sorted_values)
    if n == 0:
        raise ValueError("no values")
    h = (n - 1) * p
    lo = int(h)
    if lo + 1 < n:
        return sorted_values[lo] + (h - lo) * (sorted_values[lo + 1] - sorted_values[lo])
    return sorted_values[lo]


def schedule(pairs):
    """The blocks' tracing states, in order: off-on, on-off, off-on, ..."""
    return [(p % 2 == 0) == (k == 1) for p in range(pairs) for k in range(2)]


def tracer_cpu_s(task_dir="/proc/self/task"):
    """CPU time the tracer's threads (named cudatrace-*) have run, in seconds; None without any (untraced)."""
    total = None
    try:
        tids = os.listdir(task_dir)
    except OSError:
        return None
    for tid in tids:
        try:
            with open(os.path.join(task_dir, tid, "comm")) as f:
                if not f.read().startswith("cudatrace-"):
                    continue
            with open(os.path.join(task_dir, tid, "schedstat")) as f:
                ns = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
        total = (total or 0.0) + ns / 1e9
    return total


def pin_step_threads(cpu, task_dir="/proc/self/task"):
    """Pins this thread and the autograd threads to cpu; returns how many threads were pinned."""
    os.sched_setaffinity(0, {cpu})  # 0: the calling thread
    pinned = 1
    for tid in os.listdir(task_dir):
        try:
            with open(os.path.join(task_dir, tid, "comm")) as f:
                name = f.read().strip()
            if name.startswith("pt_autograd"):
                os.sched_setaffinity(int(tid), {cpu})
                pinned += 1
        except OSError:
            continue  # a thread that ended meanwhile
    return pinned


def summarize(blocks, tracer_total_s, steps):
    """blocks: per block (on, wall_s, cpu_s, tracer_s) in schedule order, tracer_s the tracer's threads' CPU
    time within the block; tracer_total_s theirs over the whole measurement (None: no tracer).  Returns the
    dict of figures printed (see the top)."""
    on = [b for b in blocks if b[0]]
    off = [b for b in blocks if not b[0]]
    if not on or len(on) != len(off):
        raise ValueError("blocks must come in on/off pairs")
    writer = (tracer_total_s or 0.0) / len(on)  # per "on" block
    ratios, cpu_ratios = [], []
    for b_on, b_off in zip(on, off):  # the i-th on block and the i-th off block are the i-th pair
        ratios.append((b_on[1] + writer) / b_off[1])
        cpu_ratios.append((b_on[2] - b_on[3] + writer) / (b_off[2] - b_off[3]))
    med = lambda xs: quantile(sorted(xs), 0.5)
    r, c = sorted(ratios), sorted(cpu_ratios)
    return {
        "train_off_ms": med([b[1] for b in off]) * 1e3 / steps,
        "train_on_ms": med([b[1] for b in on]) * 1e3 / steps,
        "train_writer_ms": writer * 1e3,
        "train_ratio": quantile(r, 0.5),
        "train_ratio_q1": quantile(r, 0.25),
        "train_ratio_q3": quantile(r, 0.75),
        "train_cpu_ratio": quantile(c, 0.5),
        "train_cpu_ratio_q1": quantile(c, 0.25),
        "train_cpu_ratio_q3": quantile(c, 0.75),
        "train_ratios": ratios,
        "train_cpu_ratios": cpu_ratios,
    }


def print_figures(fig, out=sys.stdout):
    for key, value in fig.items():
        if isinstance(value, list):
            print("%s=%s" % (key, ",".join("%.4f" % v for v in value)), file=out)
        else:
            print("%s=%.4f" % (key, value), file=out)


def measure(step, sync, tracing, pairs, steps, warmup, per_step=False, cpu=None):
    """Warm-up (steps off, then on: first-time costs such as new stacks out of the figures), the pairs of
    blocks, the settling pause; returns (blocks, tracer_total_s) for summarize.  per_step: each step ends
    with sync() too, and a block's wall time is its median step's times the steps (a step slowed by
    something else, the system's or the interpreter's, moves the median little).  cpu: pin the step's
    threads there after the warm-up (they exist by then)."""
    for on in (False, True):
        tracing(on)
        for _ in range(warmup):
            step()
        sync()
    tracing(False)
    if cpu is not None:
        pin_step_threads(cpu)
    blocks = []
    gc.collect()
    gc.disable()  # the collector's pauses fall on whichever block they like: none during the measurement
    t_start = tracer_cpu_s()
    for on in schedule(pairs):
        sync()  # each block starts with the GPU idle
        tracing(on)
        w0, c0, t0 = tracer_cpu_s(), time.process_time(), time.perf_counter()
        times = []
        for _ in range(steps):
            s0 = time.perf_counter()
            step()
            if per_step:
                sync()
                times.append(time.perf_counter() - s0)
        sync()
        t1, c1, w1 = time.perf_counter(), time.process_time(), tracer_cpu_s()
        wall = quantile(sorted(times), 0.5) * steps if per_step else t1 - t0
        blocks.append((on, wall, c1 - c0, (w1 or 0.0) - (w0 or 0.0)))
    tracing(False)
    gc.enable()
    time.sleep(SETTLE_S)  # the writer writes what the last blocks left
    t_end = tracer_cpu_s()
    total = None if t_start is None or t_end is None else t_end - t_start
    return blocks, total


def torch_loop(args):
    """step, sync and tracing for the training loop on the GPU."""
    import torch

    torch.manual_seed(0)
    dev = torch.device("cuda")
    layer = torch.nn.TransformerEncoderLayer(d_model=args.d_model, nhead=args.heads, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=args.layers, enable_nested_tensor=False).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(args.batch, args.seq, args.d_model, device=dev)
    target = torch.randn(args.batch, args.seq, args.d_model, device=dev)
    model.train()

    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(model(x), target)
        loss.backward()
        opt.step()

    def tracing(on):
        # cudaProfilerStart/Stop: without a profiler attached the driver may answer an error, which torch
        # raises; the tracer obeys the call whatever the answer (src/preload/capture.c).
        try:
            (torch.cuda.profiler.start if on else torch.cuda.profiler.stop)()
        except RuntimeError:
            pass

    return step, torch.cuda.synchronize, tracing


def dry_loop(args):
    """A stand-in for the loop: a little CPU work per step, no PyTorch, no GPU."""
    def step():
        sum(range(2000))

    return step, (lambda: None), (lambda on: None)


def positive(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError("must be a positive count, not %r" % text)
    return v


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="train_overhead.py",
        description="Tracing's cost on a PyTorch training loop, tracing on and off in alternating blocks of "
        "steps inside this process (run it with CUDATRACE_CAPTURE=profiler under the tracer, or through "
        "bench/run-train-overhead).",
    )
    p.add_argument("-p", "--pairs", type=positive, default=20, help="pairs of blocks, off and on (20)")
    p.add_argument("-s", "--steps", type=positive, default=10, help="training steps per block (10)")
    p.add_argument("-w", "--warmup", type=positive, default=30, help="warm-up steps, off then on (30 each)")
    p.add_argument("--layers", type=positive, default=4, help="encoder layers (4)")
    p.add_argument("--d-model", type=positive, default=256, help="model width (256)")
    p.add_argument("--heads", type=positive, default=4, help="attention heads (4)")
    p.add_argument("--batch", type=positive, default=8, help="sequences per batch (8)")
    p.add_argument("--seq", type=positive, default=64, help="tokens per sequence (64)")
    p.add_argument("--per-step", action="store_true",
                   help="synchronize after every step; a block's time is its median step's times the steps")
    p.add_argument("--cpu", type=int, metavar="N",
                   help="after the warm-up, pin the threads that run the steps to CPU N (default: not pinned)")
    p.add_argument("--dry-run", action="store_true", help="a stand-in step: no PyTorch, no GPU")
    args = p.parse_args(argv)
    if args.cpu is not None and args.cpu not in os.sched_getaffinity(0):
        p.error("--cpu %d: not a CPU this process may run on (%s)"
                % (args.cpu, ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))))
    if args.d_model % args.heads:
        p.error("--d-model (%d) must be a multiple of --heads (%d)" % (args.d_model, args.heads))
    return args


def main(argv):
    args = parse_args(argv)
    step, sync, tracing = (dry_loop if args.dry_run else torch_loop)(args)
    blocks, tracer_total = measure(step, sync, tracing, args.pairs, args.steps, args.warmup, args.per_step, args.cpu)
    if tracer_total is None and os.environ.get("CUDATRACE_CAPTURE"):
        print("train_overhead: no CPU time of the tracer's threads (no cudatrace-* thread, or no schedstat): "
              "the ratios leave it out", file=sys.stderr)
    print_figures(summarize(blocks, tracer_total, args.steps))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
