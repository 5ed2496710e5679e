"""torch.distributed under torchrun: run directly, it starts `torchrun --standalone --nproc_per_node=2` on
itself; each of the 2 ranks (gloo backend, both on GPU 0) multiplies a 256x256 matrix RANK + 1 times on the
GPU (rank 1 does twice the work: a straggler), all-reduces the sums over gloo, and rank 0 prints the result.
Exits 77 when torch, CUDA or torchrun is missing.  tests/gpu/expect/py_torchrun.sh asserts the two ranks'
traces, and runs it again through the `cudatrace run --stats` launcher to check --by rank."""
import importlib.util
import os
import shutil
import subprocess
import sys

N = 256


def launch():
    try:
        import torch
        import torch.distributed  # noqa: F401
    except ImportError as exc:
        print(f"py_torchrun: skipped: torch.distributed not importable ({exc})", file=sys.stderr)
        return 77
    if torch.version.cuda is None or not torch.cuda.is_available():
        print("py_torchrun: skipped: no CUDA in this torch or no GPU", file=sys.stderr)
        return 77
    torchrun = shutil.which("torchrun")
    if torchrun:
        cmd = [torchrun]
    elif importlib.util.find_spec("torch.distributed.run"):
        cmd = [sys.executable, "-m", "torch.distributed.run"]  # torchrun's module, where the script is not on PATH
    else:
        print("py_torchrun: skipped: no torchrun", file=sys.stderr)
        return 77
    return subprocess.call(cmd + ["--standalone", "--nproc_per_node=2", __file__])


def worker():
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    dev = torch.device("cuda:0")
    x = torch.full((N, N), 1.0, device=dev)
    for _ in range(2 * (rank + 1)):
        x = (x @ torch.eye(N, device=dev)) * 1.0
    total = torch.tensor([x.double().sum().item() * (rank + 1)])
    dist.all_reduce(total)  # gloo: on the CPU
    torch.cuda.synchronize()
    if rank == 0:
        print(f"torchrun world={world} sum={int(total.item())}: ok")
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(worker() if "RANK" in os.environ else launch())
