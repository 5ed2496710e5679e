"""PyTorch with NVTX: ITERS training steps of a small MLP, each step in torch.cuda.nvtx ranges "step" >
"forward" / "backward" (range_push/range_pop), the last step also under torch.autograd.profiler.emit_nvtx(),
which makes every ATen operator an NVTX range ("aten::mm, seq = N", ...).  Exits 77 when torch is missing or
CPU-only.  tests/gpu/expect/py_torch_nvtx.sh asserts the ranges (summary's nvtx table), that the kernels of
"forward" are found inside it (calls --range) and the operator ranges of emit_nvtx."""
import sys

try:
    import torch
except ImportError as exc:
    print(f"py_torch_nvtx: skipped: torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

ITERS = 4


def step(model, opt, x, y):
    torch.cuda.nvtx.range_push("step")
    torch.cuda.nvtx.range_push("forward")
    loss = torch.nn.functional.mse_loss(model(x), y)
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("backward")
    opt.zero_grad()
    loss.backward()
    opt.step()
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_pop()
    return loss


def main():
    if torch.version.cuda is None:
        print("py_torch_nvtx: skipped: this torch is built without CUDA", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("py_torch_nvtx: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 8)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(32, 64, device=dev)
    y = torch.randn(32, 8, device=dev)
    for _ in range(ITERS - 1):
        step(model, opt, x, y)
    with torch.autograd.profiler.emit_nvtx():
        loss = step(model, opt, x, y)
    torch.cuda.synchronize()
    ok = bool(torch.isfinite(loss).item())
    print(f"torch nvtx steps={ITERS}: {'ok' if ok else 'loss not finite'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
