"""The driver through ctypes for the Python tests (tests/integration/py-pystack*.py): `cu` (libcuda.so.1,
the simulated driver in the tests), `check` (exit on an error) and `primary_context` (cuInit, device 0's
primary context made current)."""
import ctypes
import os
import sys

cu = ctypes.CDLL("libcuda.so.1")


def check(rc):
    if rc != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: driver error {rc}")


def primary_context():
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    check(cu.cuInit(0))
    check(cu.cuDeviceGet(ctypes.byref(dev), 0))
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev))
    check(cu.cuCtxSetCurrent(ctx))
    return ctx
