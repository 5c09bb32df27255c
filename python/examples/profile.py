"""nvFuser's fusion profiler on seam: a linear with an epilogue and a row sum, executed with profile=True,
its FusionProfile printed; on a GPU, next to what torch.profiler records for the same execute (both read
CUPTI's kernel records, so the kernel times should agree), then profiled again after torch.profiler.

    PYTHONPATH=python python3 python/examples/profile.py [--cpu] [--size 4096]
"""

import argparse

import torch

from nvfuser import DataType, FusionDefinition


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help="CPU tensors (seam's host backend)")
    parser.add_argument("--size", type=int, default=None, help="the matrices' size (default 4096, 64 on CPU)")
    args = parser.parse_args()
    device = "cpu" if args.cpu or not torch.cuda.is_available() else "cuda"
    n = args.size or (4096 if device == "cuda" else 64)
    x = [torch.randn(2, n, n, device=device, dtype=torch.bfloat16),
         torch.randn(n, n, device=device, dtype=torch.bfloat16),
         torch.randn(2, n, n, device=device, dtype=torch.bfloat16)]
    with FusionDefinition() as fd:
        a, w, b = (fd.from_pytorch(t) for t in x)
        y = fd.ops.relu(fd.ops.add(fd.ops.linear(a, w), b))
        fd.add_output(y)
        fd.add_output(fd.ops.sum(fd.ops.cast(y, DataType.Float), dims=[2]))
    for _ in range(3):  # the first compiles
        out = fd.execute(x, profile=True)
    expected = torch.relu(torch.nn.functional.linear(x[0].float(), x[1].float()) + x[2].float())
    print(f"max |y - eager| = {(out[0].float() - expected).abs().max().item():.4f}")
    print(fd.profile())
    if device == "cuda":
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fd.execute(x)
            torch.cuda.synchronize()
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=10))
        fd.execute(x, profile=True)
        print("after torch.profiler:")
        print(fd.profile())


if __name__ == "__main__":
    main()
