#!/usr/bin/env python3
"""Bytes seam's kernels move for a language model's loss step at real shapes, on a CPU, nothing run:
`cross_entropy((hidden @ W.T).float(), labels)` returning the bf16 logits too (as HF models do), traced by
functorch's AOT autograd with FakeTensors, split by the min-cut partition (torch 2's recompute allowlist),
each graph partitioned into seam regions and each region segmented for its real input shapes. Prints every
kernel's inputs and outputs and the boundary bytes per region (what crosses kernel boundaries: the bytes
the kernels read and write, the products' operands included), with seam's loss decompositions and without
them (--without: the ops kept whole, as before them).

Usage (torch 1.13 with functorch, networkx; seam's module built):
    PYTHONPATH=python python3 bench/loss_path_bytes.py [--rows 8192 --hidden 2048 --vocab 32000]
        [--no-matmul] [--without]"""
import argparse
import functools
import re

import torch
import torch.nn.functional as F


def trace(rows, hidden, vocab, table):
    """The forward and backward aten graphs AOT autograd gives the loss step (with FakeTensors)."""
    from functorch.compile import aot_function, config, make_boxed_func, min_cut_rematerialization_partition

    if hasattr(config, "use_fake_tensor"):  # torch 1.13's switch; torch 2 always traces with FakeTensors
        config.use_fake_tensor = True
    graphs = []

    def record(gm, _):
        graphs.append(gm)
        outputs = next(n for n in gm.graph.nodes if n.op == "output").args[0]

        def stand_in(*_):  # zeros for the forward's outputs, so that the backward gets traced too
            if len(graphs) > 1:
                raise StopIteration
            return [torch.zeros(tuple(meta.shape), dtype=meta.dtype)
                    for meta in (n.meta.get("val", n.meta.get("tensor_meta")) for n in outputs)]

        return make_boxed_func(stand_in)

    def step(h, w, labels):
        logits = h @ w.t()
        return logits, F.cross_entropy(logits.float(), labels, ignore_index=-100)

    fn = aot_function(step, fw_compiler=record, bw_compiler=record, decompositions=table,
                      partition_fn=functools.partial(min_cut_rematerialization_partition, compiler="inductor"))
    h = torch.zeros(rows, hidden, dtype=torch.bfloat16, requires_grad=True)
    w = torch.zeros(vocab, hidden, dtype=torch.bfloat16, requires_grad=True)
    try:
        fn(h, w, torch.zeros(rows, dtype=torch.int64))[1].backward()
    except StopIteration:
        pass
    return graphs


def region_bytes(gm, settings):
    """(region name, boundary bytes, segmentation text) of every seam region of one aten graph."""
    from seam.torch_backend.compile import compile_aten_graph
    from seam.torch_backend.runtime import SeamRegion
    from seam.torch_backend.translate import translate

    found = []
    for name, region in compile_aten_graph(gm, None, settings).named_modules():
        if not isinstance(region, SeamRegion):
            continue
        inputs = []
        for node in region.graph_module.graph.nodes:
            if node.op == "placeholder":
                meta = node.meta.get("val", node.meta.get("tensor_meta"))
                stride = meta.stride() if callable(meta.stride) else meta.stride
                inputs.append(torch.empty_strided(tuple(meta.shape), tuple(stride), dtype=meta.dtype))
        translation = translate(region.graph_module.graph, inputs)
        text = translation.compile(None).executable().segmentation()
        found.append((name, int(re.search(r"boundary bytes: (\d+)", text).group(1)), text))
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=8192)
    p.add_argument("--hidden", type=int, default=2048)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--no-matmul", action="store_true", help="products left to PyTorch (the loss's kernels alone)")
    p.add_argument("--without", action="store_true", help="without seam's loss decompositions")
    args = p.parse_args()
    import seam.torch_backend as tb
    from seam.torch_backend.decompositions import decomposition_table
    from seam.torch_backend.loss_decompositions import loss_decompositions

    table = decomposition_table()
    if args.without:
        table = {op: fn for op, fn in table.items() if op not in loss_decompositions()}
    settings = tb.CompilationSettings(fallback=False, compile_ahead=False, matmul=not args.no_matmul)
    total = 0
    for label, gm in zip(("forward", "backward"), trace(args.rows, args.hidden, args.vocab, table)):
        for name, nbytes, text in region_bytes(gm, settings):
            total += nbytes
            print(f"== {label} {name}: {nbytes / 1e9:.3f} GB")
            for line in text.splitlines():
                if line.startswith(("group", "kernels")) or line.strip().startswith(("inputs:", "outputs:")):
                    print("  ", line.strip())
    print(f"total boundary bytes: {total / 1e9:.3f} GB")


if __name__ == "__main__":
    main()
