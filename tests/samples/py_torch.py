"""PyTorch on CUDA: two 256x256 float32 tensors copied to the GPU, 20 matmuls (cuBLAS), 10 elementwise adds,
the result copied back and checked exactly (small integers).  Exits 77 when torch is missing or CPU-only.
tests/gpu/expect/py_torch.sh asserts the copies, >= 20 non-PyTorch (cuBLAS) kernel launches and >= 10
elementwise kernel launches."""
import sys

try:
    import torch
except ImportError as exc:
    print(f"py_torch: skipped: torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

N = 256
MATMULS = 20
ADDS = 10


def main():
    if torch.version.cuda is None:
        print("py_torch: skipped: this torch is built without CUDA", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("py_torch: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    dev = torch.device("cuda")
    a_host = torch.arange(N * N, dtype=torch.float32).reshape(N, N).remainder(7)
    b_host = torch.eye(N, dtype=torch.float32) * 2
    a = a_host.to(dev)
    b = b_host.to(dev)
    c = None
    for _ in range(MATMULS):
        c = a @ b  # 2a: exact, whatever the GEMM kernel
    x = a
    for _ in range(ADDS):
        x = x + 1
    result = (c + x).cpu()
    torch.cuda.synchronize()

    want = a_host * 3 + ADDS
    if not torch.equal(result, want):
        bad = (result != want).nonzero()[0].tolist()
        print(f"py_torch: mismatch at {bad}: {result[bad[0], bad[1]]} != {want[bad[0], bad[1]]}", file=sys.stderr)
        return 1
    total = int(result.to(torch.float64).sum().item())
    print(f"torch n={N} matmuls={MATMULS} adds={ADDS} sum={total}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
