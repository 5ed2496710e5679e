"""cuda-python driver-API flow (cuda.bindings.driver): init, device, primary context, a module compiled by
NVRTC (or, when NVRTC cannot be loaded, the same kernel as PTX text), two cuMemAlloc, H2D copies, one
cuLaunchKernel of `ct_saxpy` (grid 16, block 256), D2H copy, sync, free.  Exits 77 when cuda.bindings is
not installed.  tests/gpu/expect/py_cuda_bindings.sh asserts exactly these calls."""
import array
import ctypes
import sys

try:
    from cuda.bindings import driver as cu
except ImportError as exc:
    print(f"py_cuda_bindings: skipped: cuda.bindings not importable ({exc})", file=sys.stderr)
    sys.exit(77)

N = 4096
BLOCK = 256
SOURCE = b"""
extern "C" __global__ void ct_saxpy(float a, const float *x, float *y, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"""
# The kernel above as `nvcc -ptx -arch=compute_80` (CUDA 13.0) writes it: the fallback when NVRTC is missing.
PTX = b"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry ct_saxpy(.param .f32 p_a, .param .u64 p_x, .param .u64 p_y, .param .u32 p_n)
{
    .reg .pred %p<2>;
    .reg .f32 %f<5>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<8>;
    ld.param.f32 %f1, [p_a];
    ld.param.u64 %rd1, [p_x];
    ld.param.u64 %rd2, [p_y];
    ld.param.u32 %r2, [p_n];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r1, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r1, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd3, %rd2;
    cvta.to.global.u64 %rd4, %rd1;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    ld.global.f32 %f2, [%rd6];
    add.s64 %rd7, %rd3, %rd5;
    ld.global.f32 %f3, [%rd7];
    fma.rn.f32 %f4, %f2, %f1, %f3;
    st.global.f32 [%rd7], %f4;
DONE:
    ret;
}
"""


def check(result, success=cu.CUresult.CUDA_SUCCESS):
    """cuda.bindings returns (status, values...): fail loudly on a bad status, return the values."""
    status, rest = result[0], result[1:]
    if status != success:
        raise RuntimeError(f"{status!r}")
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


def nvrtc_ptx(major, minor):
    """The kernel compiled by NVRTC, or None (with the reason on stderr) when NVRTC is unusable here."""
    try:
        from cuda.bindings import nvrtc
        ok = nvrtc.nvrtcResult.NVRTC_SUCCESS
        prog = check(nvrtc.nvrtcCreateProgram(SOURCE, b"ct_saxpy.cu", 0, None, None), ok)
        opts = [f"--gpu-architecture=compute_{major}{minor}".encode()]
        check(nvrtc.nvrtcCompileProgram(prog, len(opts), opts), ok)
        size = check(nvrtc.nvrtcGetPTXSize(prog), ok)
        ptx = b" " * size
        check(nvrtc.nvrtcGetPTX(prog, ptx), ok)
        return ptx
    except Exception as exc:  # a missing libnvrtc raises from deep inside the bindings
        print(f"py_cuda_bindings: NVRTC unusable ({exc}); loading the built-in PTX", file=sys.stderr)
        return None


def main():
    check(cu.cuInit(0))
    dev = check(cu.cuDeviceGet(0))
    ctx = check(cu.cuDevicePrimaryCtxRetain(dev))
    check(cu.cuCtxSetCurrent(ctx))
    attr = cu.CUdevice_attribute
    major = check(cu.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
    minor = check(cu.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))

    ptx = nvrtc_ptx(major, minor) or PTX + b"\0"
    module = check(cu.cuModuleLoadData(ptx))
    kernel = check(cu.cuModuleGetFunction(module, b"ct_saxpy"))

    x = array.array("f", (float(i % 100) for i in range(N)))
    y = array.array("f", [3.0] * N)
    nbytes = N * x.itemsize
    dx = check(cu.cuMemAlloc(nbytes))
    dy = check(cu.cuMemAlloc(nbytes))
    stream = check(cu.cuStreamCreate(0))
    check(cu.cuMemcpyHtoDAsync(dx, x, nbytes, stream))
    check(cu.cuMemcpyHtoDAsync(dy, y, nbytes, stream))
    args = ((2.0, dx, dy, N), (ctypes.c_float, None, None, ctypes.c_uint))
    check(cu.cuLaunchKernel(kernel, N // BLOCK, 1, 1, BLOCK, 1, 1, 0, stream, args, 0))
    out = array.array("f", [0.0] * N)
    check(cu.cuMemcpyDtoHAsync(out, dy, nbytes, stream))
    check(cu.cuStreamSynchronize(stream))
    check(cu.cuStreamDestroy(stream))
    check(cu.cuMemFree(dx))
    check(cu.cuMemFree(dy))
    check(cu.cuModuleUnload(module))
    check(cu.cuDevicePrimaryCtxRelease(dev))

    for i in range(N):
        want = 2.0 * (i % 100) + 3.0
        if out[i] != want:
            print(f"py_cuda_bindings: y[{i}] = {out[i]}, expected {want}", file=sys.stderr)
            return 1
    print(f"ct_saxpy n={N} grid={N // BLOCK} block={BLOCK} sum={int(sum(out))}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
