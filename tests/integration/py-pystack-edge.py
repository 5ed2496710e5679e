"""Python frames where capturing them is delicate, on the simulated driver: a forked child allocates (its
own trace file), eight threads allocate at once, a sub-interpreter allocates (where the interpreter has
them), and daemon threads keep allocating while the interpreter shuts down.  The program must behave as
untraced: tests/integration/py-pystack.sh checks its output, exit status and the child's Python frames."""
import ctypes
import os
import sys
import threading

from pysim import check, cu, primary_context


def alloc_free(size):
    p = ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(size)))
    check(cu.cuMemFree_v2(p))


def child_alloc():
    alloc_free(1 << 16)  # CHILD


def churn(ctx, n):
    check(cu.cuCtxSetCurrent(ctx))
    for _ in range(n):
        alloc_free(4096)


def sub_interpreter():
    try:
        import _xxsubinterpreters as interpreters  # 3.8 to 3.12
    except ImportError:
        try:
            import _interpreters as interpreters  # 3.13
        except ImportError:
            return
    code = ("import ctypes\ncu = ctypes.CDLL('libcuda.so.1')\np = ctypes.c_uint64()\n"
            "assert cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(8192)) == 0\nassert cu.cuMemFree_v2(p) == 0\n")
    interp = interpreters.create()
    interpreters.run_string(interp, code)
    interpreters.destroy(interp)


def main():
    ctx = primary_context()
    alloc_free(1 << 20)
    pid = os.fork()
    if pid == 0:
        check(cu.cuCtxSetCurrent(ctx))
        child_alloc()
        sys.exit(0)  # not os._exit: the tracer writes the child's file at exit
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.exit(f"py-pystack-edge: child status {status}")
    threads = [threading.Thread(target=churn, args=(ctx, 200)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sub_interpreter()
    for _ in range(2):  # still allocating when the interpreter finalizes
        threading.Thread(target=churn, args=(ctx, 10 ** 9), daemon=True).start()
    print("py-pystack-edge: PASSED")


main()
