"""GPU time against torch.profiler: a small training loop (an MLP of Linear+ReLU layers, 2048 wide, batch
512, MSE loss, SGD; fixed seed), 10 warm-up steps then 50 measured ones between cudaProfilerStart and
cudaProfilerStop (torch.cuda.profiler), so that a tracer run with CUDATRACE_CAPTURE=profiler times only
those.  The model is wide enough that the GPU, not the host, sets the pace: kernels queue behind each other,
as in real training, rather than each waiting for its launch.

With PY_TORCH_GPUTIME_PROFILE=FILE the measured steps run under torch.profiler (CUDA activity) instead and
FILE gets {"kernels": {NAME: {"count", "total_us", "avg_us"}}} from its trace; tests/gpu/expect/
py_torch_gputime.sh compares that with cudatrace-report's gpu_kernels table of a traced run.  Prints only
that the loss went down (the same traced and untraced).  Exits 77 when torch is missing or CPU-only."""
import json
import os
import sys
import tempfile

try:
    import torch
except ImportError as exc:
    print(f"py_torch_gputime: skipped: torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

WIDTH = 2048
BATCH = 512
LAYERS = 4
WARMUP = 10
STEPS = 50


def kernel_times(prof):
    """Per kernel name: count, total and mean µs, from the profiler's Chrome trace (its kernel events carry
    the CUPTI duration, in every torch version that has torch.profiler)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path, encoding="utf-8") as f:
            events = json.load(f)
    events = events.get("traceEvents", []) if isinstance(events, dict) else events
    kernels = {}
    for e in events:
        if e.get("cat") == "kernel" and e.get("ph") == "X":
            k = kernels.setdefault(e["name"], {"count": 0, "total_us": 0.0})
            k["count"] += 1
            k["total_us"] += float(e["dur"])
    for k in kernels.values():
        k["avg_us"] = k["total_us"] / k["count"]
    return kernels


def main():
    if torch.version.cuda is None:
        print("py_torch_gputime: skipped: this torch is built without CUDA", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("py_torch_gputime: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    layers = []
    for _ in range(LAYERS):
        layers += [torch.nn.Linear(WIDTH, WIDTH), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers, torch.nn.Linear(WIDTH, 1)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(BATCH, WIDTH, device=dev)
    target = torch.randn(BATCH, 1, device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        return loss

    first = step().item()
    for _ in range(WARMUP - 1):
        step()
    torch.cuda.synchronize()

    profile_path = os.environ.get("PY_TORCH_GPUTIME_PROFILE")
    if profile_path:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(STEPS):
                loss = step()
            torch.cuda.synchronize()
        with open(profile_path, "w", encoding="utf-8") as f:
            json.dump({"steps": STEPS, "kernels": kernel_times(prof)}, f, indent=1)
    else:
        torch.cuda.profiler.start()
        for _ in range(STEPS):
            loss = step()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    last = loss.item()
    if not last < first:
        print(f"py_torch_gputime: the loss went from {first} to {last}", file=sys.stderr)
        return 1
    print(f"trained {WARMUP}+{STEPS} steps of a {LAYERS}-layer MLP ({WIDTH} wide, batch {BATCH}): loss went down: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
