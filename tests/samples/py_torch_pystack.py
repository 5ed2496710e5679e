"""Python frames in the memory report of a real PyTorch program: Cache.grow keeps two 32 MiB tensors alive
past the end from the line marked KEEP; Model.forward's 64 MiB temporary is freed and its block given back
(empty_cache), from the line marked TEMP.  PyTorch releases the GIL around its allocations: the frames are
those of the calling thread all the same.  Exits 77 when torch is missing or CPU-only.
tests/gpu/expect/py_torch_pystack.sh checks that the memory report names both lines."""
import sys

try:
    import torch
except ImportError as exc:
    print(f"py_torch_pystack: skipped: torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

MiB = 1 << 20


class Cache:
    def __init__(self):
        self.blocks = []

    def grow(self):
        self.blocks.append(torch.full((32 * MiB,), 3, dtype=torch.uint8, device="cuda"))  # KEEP


class Model:
    def forward(self, cache):
        tmp = torch.ones(64 * MiB, dtype=torch.uint8, device="cuda")  # TEMP
        total = int(tmp.sum().item())
        del tmp
        torch.cuda.empty_cache()  # the block goes back to the driver: a traced free
        return total + int(cache.blocks[0][:4].sum().item())


def main():
    if torch.version.cuda is None:
        print("py_torch_pystack: skipped: this torch is built without CUDA", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("py_torch_pystack: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    cache = Cache()
    for _ in range(2):
        cache.grow()
    total = Model().forward(cache)
    torch.cuda.synchronize()
    ok = total == 64 * MiB + 12
    print(f"py_torch_pystack: {'PASSED' if ok else 'FAILED'} (64 MiB kept from Cache.grow)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
