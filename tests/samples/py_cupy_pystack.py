"""Python frames in the memory report of a CuPy program: Cache.grow keeps two 32 MiB arrays alive past the
end from the line marked KEEP; Model.forward's 64 MiB temporary is freed and its block given back to the
driver (free_all_blocks), from the line marked TEMP.  CuPy's memory pool calls cudaMalloc on the calling
thread for a size it has no free block of, so the allocation's stack is the Python caller's.  Exits 77 when
cupy is missing.  tests/gpu/expect/py_cupy_pystack.sh checks that the memory report names both lines."""
import sys

try:
    import cupy as cp
except ImportError as exc:
    print(f"py_cupy_pystack: skipped: cupy not importable ({exc})", file=sys.stderr)
    sys.exit(77)

MiB = 1 << 20


class Cache:
    def __init__(self):
        self.blocks = []

    def grow(self):
        self.blocks.append(cp.full((32 * MiB,), 3, dtype=cp.uint8))  # KEEP


class Model:
    def forward(self, cache):
        tmp = cp.ones(64 * MiB, dtype=cp.uint8)  # TEMP
        total = int(tmp.sum(dtype=cp.int64))
        del tmp
        cp.get_default_memory_pool().free_all_blocks()  # the block goes back to the driver: a traced free
        return total + int(cache.blocks[0][:4].sum(dtype=cp.int64))


def main():
    cache = Cache()
    for _ in range(2):
        cache.grow()
    total = Model().forward(cache)
    cp.cuda.Device().synchronize()
    ok = total == 64 * MiB + 12
    print(f"py_cupy_pystack: {'PASSED' if ok else 'FAILED'} (64 MiB kept from Cache.grow)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
