"""PyTorch keeping a tensor alive past the end, for the memory report on a real GPU: make_cache() keeps a
64 MiB tensor in a global that is never freed; scratch() fills a 256 MiB tensor, drops it and empties the
caching allocator's cache, so its cuMemFree is traced and the peak is at least 320 MiB.  Exits 77 when torch
is missing or CPU-only.  tests/gpu/expect/py_torch_leak.sh runs cudatrace-report memory on the trace."""
import sys

try:
    import torch
except ImportError as exc:
    print(f"py_torch_leak: skipped: torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

MiB = 1 << 20
kept = None


def make_cache():
    global kept
    kept = torch.full((64 * MiB,), 7, dtype=torch.uint8, device="cuda")


def scratch():
    x = torch.empty(256 * MiB, dtype=torch.uint8, device="cuda")
    x.fill_(1)
    total = int(x[:MiB].sum().item())
    del x
    torch.cuda.empty_cache()  # the block goes back to the driver: a traced free
    return total


def main():
    if torch.version.cuda is None:
        print("py_torch_leak: skipped: this torch is built without CUDA", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("py_torch_leak: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    make_cache()
    total = scratch()
    torch.cuda.synchronize()
    ok = total == MiB and int(kept[:16].sum().item()) == 7 * 16
    print(f"py_torch_leak: {'PASSED' if ok else 'FAILED'} (64 MiB kept past the end)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
