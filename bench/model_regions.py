#!/usr/bin/env python3
"""The segmenter's figure of merit on real models: the seam regions of a training step of Llama, Qwen2 and
GPT-2 at the GPU benchmark's shapes (bench/plain_models.py, bench/hf_models.py's CONFIGS), traced on a
CPU with nothing allocated, written as .seam files, and the bytes seam's kernels move per step.

How: the model is built on meta tensors; torch 1.13's AOT autograd traces the forward and backward with
the backend's min-cut partition (compile.min_cut_partition, as the torch.compile path uses); the
backend's own partitioner (python/seam/torch_backend/partition.py) splits each graph into seam regions; each region is translated
for its recorded input signature (CUDA tensors: every region input's dtype, shape and strides as
recorded) and its fusion text, before seam's passes, is written to bench/model_regions/<model>/. Regions
that are the same fusion (every layer's RMSNorm) are written once; bench/model_regions/<model>/regions.txt
lists each file with how many times the step runs it.

Then, unless --no-segment, every file goes through `seam segment` (passes and the segmenter, no GPU) and
the report gives per model: regions, kernels, the bytes seam's kernels move (the segmenter's boundary
bytes, summed over the step; split into the fused kernels' and the matrix products') and the floor
estimate `seam segment` prints (segment/traffic_floor.h: every op that fuses in one pass, each product
reading and writing memory; its products' part equals the products' bytes in any segmentation, as
each is a kernel alone). tests/segment/model_regions_test.cpp
re-segments the checked-in files and compares with bench/model_regions/golden.txt (--write-golden
rewrites it: a change may lower the numbers, never raise them).

Usage: python3 bench/model_regions.py [--models llama,qwen2,gpt2] [--seam build/tools/seam] [--no-trace]
       [--no-segment] [--write-golden] [--budget SECONDS (the product's time budget per region)]
       [--by-region]     (PYTHONPATH=python, or run from the repository root: python/ is added)
Needs torch with functorch (1.13's is enough) and networkx (the min-cut partition)."""

import argparse
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "model_regions")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def trace_step(name):
    """The forward and backward aten graphs of one training step, with their example (meta) inputs."""
    import torch
    from functorch.compile import aot_module, make_boxed_func

    import plain_models

    make, kwargs, batch, seq = plain_models.MODELS[name]
    model = make(**kwargs).to(device="meta", dtype=torch.bfloat16)
    ids = torch.zeros(batch, seq, dtype=torch.long, device="meta")
    graphs = []

    def keep(gm, example_inputs):
        graphs.append((gm, example_inputs))
        return make_boxed_func(lambda *args: plain_models.below_autograd(gm.forward, *args))

    from seam.torch_backend.compile import min_cut_partition
    from seam.torch_backend.decompositions import decomposition_table

    # The backend's decompositions (the loss's included) and partition, as torch.compile(backend="seam").
    step = aot_module(model, fw_compiler=keep, bw_compiler=keep, partition_fn=min_cut_partition(),
                      decompositions=decomposition_table())
    step(ids, ids).backward()
    return graphs


def stand_ins(region):
    """Meta tensors with each region input's recorded dtype, shape and strides."""
    import torch

    from seam.torch_backend.node_meta import recorded_strides, tensor_info

    out = []
    for node in region.graph_module.graph.nodes:
        if node.op != "placeholder":
            continue
        info, strides = tensor_info(node), recorded_strides(node)
        if info is None or strides is None or info.static_shape() is None:
            raise RuntimeError(f"{region.region_name}: no recorded signature for input {node.name}")
        out.append(torch.empty_strided(info.static_shape(), strides, dtype=info.dtype, device="meta"))
    return out


def regions_of(name):
    """Per distinct region fusion: (file stem, text, count), in the order the step first runs them."""
    from seam.torch_backend.partition import partition_graph
    from seam.torch_backend.runtime import SeamRegion
    from seam.torch_backend.settings import CompilationSettings
    from seam.torch_backend.translate import translate

    settings = CompilationSettings(compile_ahead=False, fallback=False)
    found = collections.OrderedDict()  # text -> [stem, count]
    for which, (gm, _) in zip(("forward", "backward"), trace_step(name)):
        fused, _ = partition_graph(gm, settings)
        index = 0
        for region in fused.modules():
            if not isinstance(region, SeamRegion):
                continue
            inputs = stand_ins(region)
            translation = translate(region.graph_module.graph, inputs)
            text = translation.fusion.fusion_ir()
            if text in found:
                found[text][1] += 1
                continue
            found[text] = [f"{which}_{index:02d}", 1]
            index += 1
    return [(stem, text, count) for text, (stem, count) in found.items()]


def write_regions(name, regions):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        if old.endswith(".seam"):
            os.remove(os.path.join(folder, old))
    lines = [f"# {name}: the seam regions of one training step (bench/model_regions.py); file, times per step"]
    for stem, text, count in regions:
        with open(os.path.join(folder, stem + ".seam"), "w") as f:
            f.write(text if text.endswith("\n") else text + "\n")
        lines.append(f"{stem}.seam {count}")
    with open(os.path.join(folder, "regions.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def read_manifest(name):
    folder = os.path.join(OUT, name)
    with open(os.path.join(folder, "regions.txt")) as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    return [(os.path.join(folder, file), int(count)) for file, count in rows]


_GROUP = re.compile(r"^group \d+: (\w+)\n(?:  (?!bytes:).*\n)*?  bytes: (\d+)$", re.M)
_TOTALS = {key: re.compile(rf"^{key}: (\d+)", re.M) for key in ("kernels", "boundary bytes", "floor estimate")}
_BOUND = re.compile(r"^cost: (\d+) .*proven lower bound (\d+)$", re.M)
_SEARCH = re.compile(r"^search: ([0-9.]+) ms", re.M)


class Segmented:
    """What `seam segment` says of one region: launches and bytes per kind of kernel, the floor."""

    def __init__(self, dump):
        self.by_kind = collections.Counter()     # kind -> bytes
        self.launches = collections.Counter()    # kind -> kernels
        for kind, moved in _GROUP.findall(dump):
            self.by_kind[kind] += int(moved)
            self.launches[kind] += 1
        totals = {}
        for key, pattern in _TOTALS.items():
            found = pattern.search(dump)
            if not found:
                raise RuntimeError(f"unexpected `seam segment` output (no '{key}'):\n{dump[-2000:]}")
            totals[key] = int(found.group(1))
        self.kernels, self.bytes, self.floor = totals["kernels"], totals["boundary bytes"], totals["floor estimate"]
        if sum(self.by_kind.values()) != self.bytes or sum(self.launches.values()) != self.kernels:
            raise RuntimeError("the groups of `seam segment`'s dump do not add up to its totals")
        bound, search = _BOUND.search(dump), _SEARCH.search(dump)
        if not bound or not search:
            raise RuntimeError(f"unexpected `seam segment` output (no cost or search line):\n{dump[-2000:]}")
        self.cost, self.lower_bound = int(bound.group(1)), int(bound.group(2))
        self.search_ms = float(search.group(1))
        proven = re.search(r"^proven optimal: (.*)$", dump, re.M)
        self.proven = proven.group(1) if proven else "?"


def segment_file(seam, path, budget=None):
    """`seam segment` on one file: with state budgets only (--reproducible), or the product's time budget."""
    flags = ["--budget", str(budget)] if budget is not None else ["--reproducible"]
    out = subprocess.run([seam, "segment", *flags, path], check=True, capture_output=True, text=True).stdout
    return Segmented(out)


def step_totals(seam, name, budget=None, by_region=False):
    """Per model: regions, kernels, bytes (all, and of the fused kernels alone), floor, cost and its proven
    lower bound, search time (each distinct region once: identical regions share a compilation), proofs.
    `by_region`: also prints each region file's bytes next to its floor estimate."""
    t = collections.Counter()
    proofs = collections.Counter()
    for path, count in read_manifest(name):
        s = segment_file(seam, path, budget)
        if by_region:
            print(f"  {os.path.relpath(path, ROOT)} x{count}: {s.kernels} kernels, {s.bytes / 1e6:.0f} MB, "
                  f"{(s.bytes - s.floor) / 1e6:.0f} MB above its floor estimate", file=sys.stderr)
        t["cost"] += s.cost * count
        t["lower_bound"] += s.lower_bound * count
        t["search_ms"] += s.search_ms
        t["regions"] += count
        t["kernels"] += s.kernels * count
        t["bytes"] += s.bytes * count
        t["floor"] += s.floor * count
        t["matmuls"] += s.launches["matmul"] * count
        t["matmul_bytes"] += s.by_kind["matmul"] * count
        proofs[s.proven] += count
    return t, proofs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="llama,qwen2,gpt2")
    parser.add_argument("--seam", default=os.path.join(ROOT, "build", "tools", "seam"))
    parser.add_argument("--no-trace", action="store_true", help="report on the checked-in files only")
    parser.add_argument("--no-segment", action="store_true", help="trace and write the files only")
    parser.add_argument("--write-golden", action="store_true")
    parser.add_argument("--budget", type=float, default=None,
                        help="segment with the product's time budget (seconds per region) instead of "
                             "--reproducible's state budgets; not for --write-golden")
    parser.add_argument("--by-region", action="store_true",
                        help="also each region's bytes and how far above its floor estimate (on stderr)")
    args = parser.parse_args()
    models = args.models.split(",")
    if not args.no_trace:
        for name in models:
            regions = regions_of(name)
            write_regions(name, regions)
            print(f"{name}: {sum(c for _, _, c in regions)} regions, {len(regions)} distinct, written to "
                  f"{os.path.relpath(os.path.join(OUT, name), ROOT)}", file=sys.stderr)
    if args.no_segment:
        return
    golden = []
    if args.write_golden and args.budget is not None:
        parser.error("--write-golden takes the reproducible segmentation: drop --budget")
    print("| model step | regions | kernels (fused + products) | bytes seam's kernels move (fused + products) "
          "| at 3 TB/s | floor estimate (fused + products) | cost (bytes + 8 MB/launch) / proven lower bound "
          "| segmenting | regions proven |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in models:
        t, proofs = step_totals(args.seam, name, args.budget, args.by_region)
        fused_bytes = t["bytes"] - t["matmul_bytes"]
        print(f"| {name} | {t['regions']} | {t['kernels']} ({t['kernels'] - t['matmuls']} + {t['matmuls']}) | "
              f"{t['bytes'] / 1e9:.2f} GB ({fused_bytes / 1e9:.2f} + {t['matmul_bytes'] / 1e9:.2f}) | "
              f"{t['bytes'] / 3e12 * 1e3:.2f} ms | {t['floor'] / 1e9:.2f} GB "
              f"({(t['floor'] - t['matmul_bytes']) / 1e9:.2f} + {t['matmul_bytes'] / 1e9:.2f}) | "
              f"{t['cost'] / 1e9:.2f} / {t['lower_bound'] / 1e9:.2f} GB | {t['search_ms']:.0f} ms | "
              f"{', '.join(f'{v} {k}' for k, v in proofs.items())} |")
        golden.append(f"{name} {t['bytes']}")
    if args.write_golden:
        with open(os.path.join(OUT, "golden.txt"), "w") as f:
            f.write("# model, bytes seam's kernels move per training step (bench/model_regions.py): upper "
                    "bounds that tests/segment/model_regions_test.cpp checks; lower them, never raise them\n")
            f.write("\n".join(golden) + "\n")


if __name__ == "__main__":
    main()
