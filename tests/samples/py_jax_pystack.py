"""Python frames in the memory report of a JAX program: Cache.grow keeps two 32 MiB arrays alive past the
end from the line marked KEEP; Model.forward's 64 MiB temporary is deleted, from the line marked TEMP.  With
XLA_PYTHON_CLIENT_ALLOCATOR=platform, XLA asks the driver for each buffer when it is made (its default
allocator takes most of the GPU in one allocation up front, whose only Python line is the first array's).
Exits 77 when jax is missing or has no GPU backend.  tests/gpu/expect/py_jax_pystack.sh checks that the
memory report names both lines."""
import os
import sys

os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
os.environ["XLA_PYTHON_CLIENT_ALLOCATOR"] = "platform"

try:
    import jax
    import jax.numpy as jnp
except ImportError as exc:
    print(f"py_jax_pystack: skipped: jax not importable ({exc})", file=sys.stderr)
    sys.exit(77)

MiB = 1 << 20


class Cache:
    def __init__(self):
        self.blocks = []

    def grow(self, fill):
        self.blocks.append(jnp.full((32 * MiB,), fill, dtype=jnp.uint8))  # KEEP


class Model:
    def forward(self, cache):
        tmp = jnp.ones(64 * MiB, dtype=jnp.uint8)  # TEMP
        total = int(tmp.sum(dtype=jnp.int64 if jax.config.jax_enable_x64 else jnp.int32))
        tmp.delete()
        return total + int(cache.blocks[0][:4].sum())


def main():
    try:
        jax.devices("gpu")
    except RuntimeError as exc:
        print(f"py_jax_pystack: skipped: jax has no GPU backend ({exc})", file=sys.stderr)
        return 77
    cache = Cache()
    for fill in (3, 3):
        cache.grow(fill)
    total = Model().forward(cache)
    ok = total == 64 * MiB + 12
    print(f"py_jax_pystack: {'PASSED' if ok else 'FAILED'} (64 MiB kept from Cache.grow)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
