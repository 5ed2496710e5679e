"""A training loop's two planted problems, in Python through ctypes on the simulated driver, as
tests/samples/py_torch_analyze.py plants them with PyTorch on a GPU: each step reads a 4-byte result back
with a synchronous copy (what a .item() does; the line marked READBACK) and allocates a buffer of a new
size (what a torch.empty of a new size makes a caching allocator do; ALLOC).  With "fixed" as argument,
the loop allocates its buffer once and reads back once, after the loop.  tests/integration/py-analyze.sh
asserts that analyze --group-by python names both lines, and neither when fixed."""
import ctypes
import sys

from pysim import check, cu, primary_context

STEPS = 40
cu.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
cu.cuMemsetD8_v2.argtypes = [ctypes.c_uint64, ctypes.c_ubyte, ctypes.c_size_t]
cu.cuMemcpyDtoH_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t]


def train(fixed):
    kept = ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(kept), 1 << 20))
    loss = ctypes.c_float()
    losses = []
    for step in range(STEPS):
        buf = kept
        if not fixed:
            buf = ctypes.c_uint64()
            check(cu.cuMemAlloc_v2(ctypes.byref(buf), (step + 1) << 20))  # ALLOC
        check(cu.cuMemsetD8_v2(buf.value, step, 1 << 20))
        if not fixed:
            check(cu.cuMemcpyDtoH_v2(ctypes.byref(loss), buf.value, 4))  # READBACK
            losses.append(loss.value)
    check(cu.cuMemcpyDtoH_v2(ctypes.byref(loss), kept.value, 4))
    return losses


def main():
    primary_context()
    train(len(sys.argv) > 1 and sys.argv[1] == "fixed")
    print("py-analyze: PASSED")


main()
