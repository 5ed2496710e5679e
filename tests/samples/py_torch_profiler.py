# torch.profiler inside a traced program (exact GPU time: the program's own profiler keeps working).  Matrix
# products run first under the tracer's GPU time (CUPTI's activity records by default), then the program
# profiles more of them with torch.profiler, which takes CUPTI: it must still see its CUDA kernels, as it does
# untraced.  Prints whether it did; exit 1 when it did not.
import sys

import torch
from torch.profiler import ProfilerActivity, profile


def main():
    x = torch.randn(512, 512, device="cuda")
    for _ in range(20):
        x = torch.tanh(x @ x)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            x = torch.tanh(x @ x)
        torch.cuda.synchronize()
    kernels = sum(1 for e in prof.events() if e.device_type.name == "CUDA")
    ok = kernels >= 10
    print("torch.profiler saw the CUDA kernels of its steps:", "yes" if ok else "no")
    if not ok:
        print("py_torch_profiler: torch.profiler saw %d CUDA events" % kernels, file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
