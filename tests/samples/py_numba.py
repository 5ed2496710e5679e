"""numba-cuda: `ct_numba_scale`, defined here with @cuda.jit, launched with grid 16 and block 256 on an
array copied to the GPU; the result copied back and checked exactly.  Exits 77 when numba's CUDA target
cannot be imported (on numpy 2.5, numba fails untraced: numpy dropped `row_stack`) or finds no CUDA.
tests/gpu/expect/py_numba.sh asserts the launch, the allocation and both copy directions."""
import sys

try:
    import numpy as np
    from numba import cuda
except Exception as exc:  # ImportError, or AttributeError from numba's numpy shims
    print(f"py_numba: skipped: numba-cuda not importable ({type(exc).__name__}: {exc})", file=sys.stderr)
    sys.exit(77)

N = 4096
BLOCK = 256


@cuda.jit
def ct_numba_scale(x, factor):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * factor + 1.0


def main():
    if not cuda.is_available():
        print("py_numba: skipped: numba finds no usable CUDA driver", file=sys.stderr)
        return 77
    host = np.arange(N, dtype=np.float32) % 10
    dev = cuda.to_device(host)
    ct_numba_scale[N // BLOCK, BLOCK](dev, np.float32(3.0))
    out = dev.copy_to_host()
    cuda.synchronize()

    want = host * 3 + 1
    if not np.array_equal(out, want):
        i = int(np.flatnonzero(out != want)[0])
        print(f"py_numba: x[{i}] = {out[i]}, expected {want[i]}", file=sys.stderr)
        return 1
    print(f"numba ct_numba_scale n={N} sum={int(out.astype(np.float64).sum())}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
