"""torch.distributed with NCCL on two GPUs: run directly, it starts `torchrun --standalone --nproc_per_node=2`
on itself; rank r uses GPU r (LOCAL_RANK), all-reduces three tensors (1, 1000 and 2**20 floats, and an int64
one) and broadcasts one, then trains a small DDP model (two linear layers) for 5 steps on data of its own,
and checks that the parameters are the same on both ranks.  Rank 0 prints one line of results.
Exits 77 (the GPU runner's SKIP) when torch, CUDA, NCCL or torchrun is missing or there are fewer than two
GPUs.  tests/gpu/expect/py_torchrun_nccl.sh asserts the ranks' traces, and runs the job again as
`cudatrace run -o DIR/trace-%q{RANK}-%p.ctrace -- torchrun ...`."""
import importlib.util
import os
import shutil
import subprocess
import sys

STEPS = 5


def skip(why):
    print(f"py_torchrun_nccl: skipped: {why}", file=sys.stderr)
    return 77


def torchrun_command():
    """torchrun, or its module where the script is not on PATH; None if neither."""
    torchrun = shutil.which("torchrun")
    if torchrun:
        return [torchrun]
    if importlib.util.find_spec("torch.distributed.run"):
        return [sys.executable, "-m", "torch.distributed.run"]
    return None


def launch():
    try:
        import torch
        import torch.distributed as dist
    except ImportError as exc:
        return skip(f"torch.distributed not importable ({exc})")
    if torch.version.cuda is None or not torch.cuda.is_available():
        return skip("no CUDA in this torch or no GPU")
    if torch.cuda.device_count() < 2:
        return skip(f"needs 2 GPUs, found {torch.cuda.device_count()}")
    if not dist.is_nccl_available():
        return skip("this torch has no NCCL")
    cmd = torchrun_command()
    if not cmd:
        return skip("no torchrun")
    return subprocess.call(cmd + ["--standalone", "--nproc_per_node=2", __file__])


def worker():
    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel

    local = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()

    # All-reduces: rank r contributes (r + 1) * (i + 1); the sum is (i + 1) * world * (world + 1) / 2.
    reduced = True
    for i, n in enumerate((1, 1000, 1 << 20)):
        t = torch.full((n,), float((rank + 1) * (i + 1)), device=dev)
        dist.all_reduce(t)
        reduced &= bool(torch.all(t == (i + 1) * world * (world + 1) / 2).item())
    counts = torch.arange(16, dtype=torch.int64, device=dev) * (rank + 1)
    dist.all_reduce(counts)
    reduced &= bool(torch.equal(counts, torch.arange(16, dtype=torch.int64, device=dev) * 3))
    b = torch.full((256,), float(rank + 7), device=dev)
    dist.broadcast(b, src=1)
    reduced &= bool(torch.all(b == 8.0).item())

    # DDP: the same initial parameters (seed 0), each rank its own batches; gradients are averaged by NCCL.
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to(dev)
    ddp = DistributedDataParallel(model, device_ids=[local])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    data = torch.Generator().manual_seed(100 + rank)
    for _ in range(STEPS):
        x = torch.randn(32, 64, generator=data).to(dev)
        y = torch.randint(0, 10, (32,), generator=data).to(dev)
        opt.zero_grad()
        loss = nn.functional.cross_entropy(ddp(x), y)
        loss.backward()
        opt.step()
    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(world)]
    dist.all_gather(gathered, flat)
    same = all(torch.equal(gathered[0], g) for g in gathered[1:])
    torch.cuda.synchronize()
    if rank == 0:
        print(f"torchrun nccl world={world} all_reduce={'ok' if reduced else 'WRONG'} ddp steps={STEPS} "
              f"parameters {'equal' if same else 'DIFFER'} on all ranks")
    dist.destroy_process_group()
    return 0 if reduced and same else 1


if __name__ == "__main__":
    sys.exit(worker() if "RANK" in os.environ else launch())
