"""CuPy: an array copied to the GPU, elementwise ops and a reduction, one RawKernel `ct_scale` launch
(grid 16, block 256), the result copied back and checked exactly.  Exits 77 when cupy is missing.
tests/gpu/expect/py_cupy.sh asserts the ct_scale launch, allocations and both copy directions."""
import sys

try:
    import cupy as cp
    import numpy as np
except ImportError as exc:
    print(f"py_cupy: skipped: cupy not importable ({exc})", file=sys.stderr)
    sys.exit(77)

N = 4096
BLOCK = 256
SCALE_SOURCE = r"""
extern "C" __global__ void ct_scale(float *x, float factor, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * factor;
}
"""


def main():
    host = np.arange(N, dtype=np.float32) % 100
    x = cp.asarray(host)
    y = x * 2 + 1
    total = int(y.sum())  # reduction kernel, then a 4-byte copy back
    ct_scale = cp.RawKernel(SCALE_SOURCE, "ct_scale")
    ct_scale((N // BLOCK,), (BLOCK,), (y, np.float32(3.0), np.uint32(N)))
    out = cp.asnumpy(y)
    cp.cuda.Device().synchronize()

    want = (host * 2 + 1) * 3
    if not np.array_equal(out, want):
        i = int(np.flatnonzero(out != want)[0])
        print(f"py_cupy: y[{i}] = {out[i]}, expected {want[i]}", file=sys.stderr)
        return 1
    print(f"cupy n={N} sum={total} scaled_sum={int(out.astype(np.float64).sum())}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
