"""Two ranks of a DDP training loop, rank 1 slowed, for cudatrace-report analyze's ranks rule.  Run directly,
it starts itself twice with RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set (as torchrun
does), so that each rank's trace carries its rank.  Backend NCCL with a GPU per rank; gloo when there is one
GPU (both ranks share it: NCCL refuses two ranks on one device).  Each of STEPS steps is an NVTX range
"step"; in rank 1's, torch.cuda._sleep keeps its GPU busy SLOW_MS longer (a slower GPU, or more work, on one
rank): with NCCL the other rank waits for it in the all-reduce, with gloo it lags on its own GPU time.
Rank 0 prints one line.  Exits 77 (the GPU runner's SKIP) without torch, CUDA or torch.distributed."""
import os
import socket
import subprocess
import sys

STEPS = 30
SLOW_MS = 100


def skip(why):
    print(f"py_torch_ddp_slow: skipped: {why}", file=sys.stderr)
    return 77


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch():
    try:
        import torch.distributed  # noqa: F401  (no CUDA call in this process)
    except ImportError as exc:
        return skip(f"torch.distributed not importable ({exc})")
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()), WORLD_SIZE="2")
    procs = [subprocess.Popen([sys.executable, __file__], env=dict(env, RANK=str(r), LOCAL_RANK=str(r)))
             for r in range(2)]
    codes = [p.wait() for p in procs]
    return 77 if 77 in codes else max(codes)


def worker(rank):
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    if torch.version.cuda is None or not torch.cuda.is_available():
        return skip("no CUDA in this torch or no GPU")
    ngpus = torch.cuda.device_count()
    backend = "nccl" if ngpus >= 2 and dist.is_nccl_available() else "gloo"
    if backend == "gloo" and not dist.is_gloo_available():
        return skip("neither NCCL with two GPUs nor gloo")
    dev = torch.device("cuda", rank % ngpus)
    torch.cuda.set_device(dev)
    dist.init_process_group(backend)
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 8)).to(dev),
                device_ids=[dev.index])
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(128, 256, device=dev)
    y = torch.randint(0, 8, (128,), device=dev)
    # GPU cycles in SLOW_MS: measured, since clocks differ between GPUs (the first call loads the kernel).
    torch.cuda._sleep(1 << 10)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.cuda._sleep(1 << 24)
    end.record()
    end.synchronize()
    cycles = int((1 << 24) * SLOW_MS / max(start.elapsed_time(end), 1e-3))
    for _ in range(STEPS):
        torch.cuda.nvtx.range_push("step")
        if rank == 1:
            torch.cuda._sleep(cycles)  # SLOW
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    dist.barrier()
    if rank == 0:
        print(f"py_torch_ddp_slow: {STEPS} steps on 2 ranks")
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(worker(int(os.environ["RANK"])) if "RANK" in os.environ else launch())
