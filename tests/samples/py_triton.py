"""Triton: `add_kernel`, defined here with @triton.jit, adding two vectors of 98432 floats in blocks of 1024
(grid 97, 4 warps = 128 threads), result checked exactly.  Exits 77 when triton or torch is missing.
tests/gpu/expect/py_triton.sh asserts the add_kernel launch with that grid and block."""
import sys

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as exc:
    print(f"py_triton: skipped: triton/torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

N = 98432
BLOCK_SIZE = 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def main():
    if not torch.cuda.is_available():
        print("py_triton: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    x_host = torch.arange(N, dtype=torch.float32).remainder(13)
    y_host = torch.full((N,), 5.0, dtype=torch.float32)
    x = x_host.cuda()
    y = y_host.cuda()
    out = torch.empty_like(x)
    grid = (triton.cdiv(N, BLOCK_SIZE),)
    add_kernel[grid](x, y, out, N, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    result = out.cpu()
    torch.cuda.synchronize()

    want = x_host + y_host
    if not torch.equal(result, want):
        i = int((result != want).nonzero()[0])
        print(f"py_triton: out[{i}] = {result[i]}, expected {want[i]}", file=sys.stderr)
        return 1
    print(f"triton add_kernel n={N} grid={grid[0]} sum={int(result.to(torch.float64).sum().item())}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
