"""A small PyTorch training loop with two problems planted for cudatrace-report analyze: a `.item()` of the
loss each step (a read-back that makes the host wait for the GPU: the line marked ITEM) and a `torch.empty`
of a new, larger size each step (the caching allocator cannot serve it from its cache and calls cudaMalloc:
the line marked EMPTY).  With fixed=True (py_torch_analyze_fixed.py) the same loop without them: the loss is
summed on the GPU and read once at the end, the scratch buffer has one size.  Prints one line, the same
traced or not.  Exits 77 (the GPU runner's SKIP) without torch or a GPU."""
import sys

STEPS = 40


def main(fixed=False):
    try:
        import torch
    except ImportError as exc:
        print(f"py_torch_analyze: skipped: torch not importable ({exc})", file=sys.stderr)
        return 77
    if torch.version.cuda is None or not torch.cuda.is_available():
        print("py_torch_analyze: skipped: no CUDA in this torch or no GPU", file=sys.stderr)
        return 77
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(256, 512, device=dev)
    y = torch.randint(0, 10, (256,), device=dev)
    losses = []
    total = torch.zeros((), device=dev)
    for step in range(STEPS):
        if fixed:
            scratch = torch.empty(1 << 20, device=dev)
        else:
            scratch = torch.empty((step + 1) << 20, device=dev)  # EMPTY
        scratch.fill_(1.0)
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x), y) + scratch[0] * 0
        loss.backward()
        opt.step()
        if fixed:
            total += loss.detach()
        else:
            losses.append(loss.item())  # ITEM
    final = float(total.item()) if fixed else sum(losses)
    torch.cuda.synchronize()
    print(f"py_torch_analyze: {STEPS} steps, loss {'finite' if final == final else 'not finite'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
