"""Cost of Python frames in call stacks: cuMemAlloc+cuMemFree pairs made through ctypes from DEPTH nested
Python calls, on whatever libcuda.so.1 is found (bench/run-pystack: the simulated driver).  Prints the
median over ROUNDS rounds of ns per pair; run under the tracer with CUDATRACE_PYTHON_STACKS=off and auto to
see what the Python frames add.  Usage: pystack_bench.py [PAIRS [DEPTH [ROUNDS]]]"""
import ctypes
import statistics
import sys
import time

pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 10
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
cu = ctypes.CDLL("libcuda.so.1")
alloc, free = cu.cuMemAlloc_v2, cu.cuMemFree_v2


def loop(n):
    p, size = ctypes.c_uint64(), ctypes.c_size_t(4096)
    ref = ctypes.byref(p)
    t0 = time.perf_counter_ns()
    for _ in range(n):
        if alloc(ref, size) or free(p):
            sys.exit("pystack_bench: driver error")
    return (time.perf_counter_ns() - t0) / n


def nested(d, n):
    return nested(d - 1, n) if d > 1 else loop(n)


dev, ctx = ctypes.c_int(), ctypes.c_void_p()
if cu.cuInit(0) or cu.cuDeviceGet(ctypes.byref(dev), 0) or cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) \
        or cu.cuCtxSetCurrent(ctx):
    sys.exit("pystack_bench: no device")
nested(depth, 1000)  # warm: the stacks are seen once
print(f"{statistics.median(nested(depth, pairs) for _ in range(rounds)):.0f} ns per alloc+free pair "
      f"({pairs} pairs, {depth} Python frames deep, median of {rounds})")
