#!/usr/bin/env python3
"""Compile time of the torch.compile backend on the plain-PyTorch Llama (tests/python/llama_block.py):
the first forward + backward through AOT autograd with seam's regions, with the disk cache off (every
kernel compiles), regions compiled as they first run (compile_ahead=False) against compiled ahead on
worker threads, each in its own process so that no in-memory cache carries over. Host backend on CPU
tensors, CUDA where --device cuda.

Usage: PYTHONPATH=python python3 bench/torch_backend_compile_time.py [--device cpu] [--layers 2]
       [--threads 0] [--repeat 1] [--torch-ops aten._softmax.default]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import json, sys, time
sys.path.insert(0, {tests!r})
import torch
import seam.torch_backend as tb
from llama_block import TinyLlama
torch.manual_seed(0)
model = TinyLlama(layers={layers}).to({device!r})
tokens = torch.randint(0, 64, (2, 9), device={device!r})
labels = torch.randint(0, 64, (2, 9), device={device!r})
settings = tb.CompilationSettings(compile_ahead={ahead}, compile_threads={threads},
                                  torch_executed_ops=frozenset({torch_ops!r}))
started = time.perf_counter()
logits, loss = tb.aot_compile(model, settings)(tokens, labels)
loss.backward()
if {device!r} == "cuda":
    torch.cuda.synchronize()
print(json.dumps(dict(seconds=time.perf_counter() - started, ahead=tb.STATS["definitions_compiled_ahead"],
                      compiled=tb.STATS["signatures_compiled"], in_pytorch=tb.STATS["signatures_in_pytorch"])))
"""


def run(device, layers, ahead, threads, torch_ops):
    env = dict(os.environ, SEAM_CACHE_DIR="off", SEAM_NVRTC_NO_CACHE="1")
    code = CHILD.format(tests=os.path.join(ROOT, "tests", "python"), layers=layers, device=device,
                        ahead=ahead, threads=threads, torch_ops=torch_ops)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0, help="0: one per core")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--torch-ops", default="aten._softmax.default",
                        help="overloads left to PyTorch, comma-separated: softmax stands for the attention "
                             "PyTorch runs on the GPU (SDPA), which splits each layer's regions")
    args = parser.parse_args()
    for _ in range(args.repeat):
        for ahead in (False, True):
            r = run(args.device, args.layers, ahead, args.threads, [o for o in args.torch_ops.split(",") if o])
            label = f"ahead, {args.threads or os.cpu_count()} thread(s)" if ahead else "as they run"
            print(f"{args.device} {args.layers} layer(s), regions compiled {label}: {r['seconds']:.2f} s "
                  f"(definitions compiled ahead {r['ahead']}, at first run {r['compiled']}, "
                  f"in PyTorch {r['in_pytorch']})", flush=True)


if __name__ == "__main__":
    main()
