"""JAX: a jit-compiled function on two arrays put on the GPU, block_until_ready, the result copied back
and checked exactly.  Exits 77 when jax is missing or has no GPU backend.  tests/gpu/expect/py_jax.sh
asserts that launches, allocations and both copy directions appear (XLA names its own kernels)."""
import os
import sys

# Allocate on demand rather than 75% of the GPU up front: the same calls, a politer footprint.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

try:
    import jax
    import numpy as np
except ImportError as exc:
    print(f"py_jax: skipped: jax not importable ({exc})", file=sys.stderr)
    sys.exit(77)

N = 4096


@jax.jit
def ct_jax_axpy(x, y):
    return x * 2.0 + y


def main():
    try:
        gpu = jax.devices("gpu")[0]
    except RuntimeError as exc:
        print(f"py_jax: skipped: jax has no GPU backend ({exc})", file=sys.stderr)
        return 77
    x_host = np.arange(N, dtype=np.float32) % 100
    y_host = np.full(N, 3.0, dtype=np.float32)
    x = jax.device_put(x_host, gpu)
    y = jax.device_put(y_host, gpu)
    result = ct_jax_axpy(x, y).block_until_ready()
    out = np.asarray(result)

    want = x_host * 2 + 3
    if not np.array_equal(out, want):
        i = int(np.flatnonzero(out != want)[0])
        print(f"py_jax: out[{i}] = {out[i]}, expected {want[i]}", file=sys.stderr)
        return 1
    print(f"jax n={N} sum={int(out.astype(np.float64).sum())}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
