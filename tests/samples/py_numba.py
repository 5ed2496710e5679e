"""numba-cuda: `ct_numba_scale`, defined here with @cuda.jit, launched with grid 16 and block 256 on an
array copied to the GPU; the result copied back and checked exactly.  Exits 77 when numba's CUDA target
cannot be imported or finds no CUDA, and when numba trips over numpy >= 2.5 having dropped `row_stack`:
numba fails that way untraced too, at import or later (the first kernel compilation), so only that exact
AttributeError is a skip; any other error fails.
tests/gpu/expect/py_numba.sh asserts the launch, the allocation and both copy directions."""
import sys


def skip(why):
    print(f"py_numba: skipped: {why}", file=sys.stderr)
    sys.exit(77)


def numpy_incompatible(exc):
    """numba using numpy.row_stack, which numpy 2.5 removed (a known numba/numpy incompatibility)."""
    return isinstance(exc, AttributeError) and "has no attribute 'row_stack'" in str(exc)


try:
    import numpy as np
    from numba import cuda
except ImportError as exc:
    skip(f"numba-cuda not importable ({type(exc).__name__}: {exc})")
except AttributeError as exc:
    if not numpy_incompatible(exc):
        raise
    skip(f"numba is incompatible with this numpy: {exc}")

N = 4096
BLOCK = 256


def ct_numba_scale(x, factor):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * factor + 1.0


def main():
    if not cuda.is_available():
        print("py_numba: skipped: numba finds no usable CUDA driver", file=sys.stderr)
        return 77
    kernel = cuda.jit(ct_numba_scale)  # here, not as a decorator: inside the guard of numba's own failures
    host = np.arange(N, dtype=np.float32) % 10
    dev = cuda.to_device(host)
    kernel[N // BLOCK, BLOCK](dev, np.float32(3.0))
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
    try:
        sys.exit(main())
    except AttributeError as exc:
        if not numpy_incompatible(exc):
            raise
        skip(f"numba is incompatible with this numpy: {exc}")
