"""Python frames in call stacks, on the simulated driver through ctypes: Model.load_weights leaks two 1 MiB
buffers (its cuMemAlloc line is marked LEAK), scratch_roundtrip allocates 2 MiB and frees it (marked
SCRATCH), both called from main; a thread allocates too (marked THREAD) and frees.  tests/integration/
py-pystack.sh asserts that the reports name these functions and lines."""
import ctypes
import threading

from pysim import check, cu, primary_context


class Model:
    def __init__(self):
        self.weights = []

    def load_weights(self, n):
        for _ in range(n):
            p = ctypes.c_uint64()
            check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(1 << 20)))  # LEAK
            self.weights.append(p)


def scratch_roundtrip():
    p = ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(2 << 20)))  # SCRATCH
    check(cu.cuMemFree_v2(p))


def worker(ctx):
    check(cu.cuCtxSetCurrent(ctx))
    p = ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(4096)))  # THREAD
    check(cu.cuMemFree_v2(p))


def main():
    ctx = primary_context()
    model = Model()
    model.load_weights(2)
    scratch_roundtrip()
    t = threading.Thread(target=worker, args=(ctx,))
    t.start()
    t.join()
    print("py-pystack: PASSED")


main()
