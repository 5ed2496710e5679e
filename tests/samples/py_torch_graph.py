"""PyTorch CUDA graphs: a small Linear+ReLU model captured with torch.cuda.graph (capture_error_mode
"global", PyTorch's default: an unsafe call from any thread during the capture fails it), replayed on 6
inputs copied into the static input, each result checked against the eager model and summed.  Values are
small integers, so every sum is exact and the printed checksum is the same traced and untraced.
Exits 77 when torch is missing or CPU-only.  tests/gpu/expect/py_torch_graph.sh."""
import sys

try:
    import torch
except ImportError as exc:
    print(f"py_torch_graph: skipped: torch not importable ({exc})", file=sys.stderr)
    sys.exit(77)

N = 64
REPLAYS = 6


def main():
    if torch.version.cuda is None:
        print("py_torch_graph: skipped: this torch is built without CUDA", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("py_torch_graph: torch.cuda.is_available() is False on a machine with a GPU", file=sys.stderr)
        return 1
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    model = torch.nn.Sequential(torch.nn.Linear(N, N), torch.nn.ReLU(), torch.nn.Linear(N, N)).to(dev)
    with torch.no_grad():  # weights and biases in {-1, 0, 1, 2}: sums of small integers, exact in float32
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.arange(p.numel(), device=dev).reshape(p.shape).add(i).remainder(4).sub(1).float())
    static_in = torch.zeros(8, N, device=dev)

    # Warm-up on a side stream, as torch.cuda.graph's documentation asks (cuBLAS handles, workspaces).
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side), torch.no_grad():
        for _ in range(3):
            model(static_in)
    torch.cuda.current_stream().wait_stream(side)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph), torch.no_grad():
        static_out = model(static_in)

    checksum = 0
    with torch.no_grad():
        for r in range(REPLAYS):
            x = torch.arange(8 * N, device=dev).reshape(8, N).add(r).remainder(3).float()
            static_in.copy_(x)
            graph.replay()
            want = model(x)
            if not torch.equal(static_out, want):
                print(f"py_torch_graph: replay {r} differs from the eager model", file=sys.stderr)
                return 1
            checksum += int(static_out.to(torch.float64).sum().item())
    torch.cuda.synchronize()
    print(f"torch.cuda.graph n={N} replays={REPLAYS} checksum={checksum}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
