#!/usr/bin/env python3
"""A language model's loss step, `cross_entropy((hidden @ W.T).float(), labels)` forward + backward, per
mode at model shapes (bf16, batch x T rows, 10% of the labels -100):
  eager           PyTorch as written,
  inductor        torch.compile (Inductor),
  seam            torch.compile(backend="seam"): the unfused path (product, seam's cross-entropy regions),
  seam-fused      torch.compile(backend="seam", options={"linear_cross_entropy": True}): the graph rewrite
                  to the fused op,
  fused           seam.torch_backend.fused_linear_cross_entropy.linear_cross_entropy called directly.
Reports per mode the step ms (median of --steps after --warmup, CUDA events), the peak memory the step
adds above its inputs (torch.cuda.max_memory_allocated), the rows per chunk of the fused op, and the
deviation of the loss and of both gradients from eager fp32 (max |diff| / max |reference|).

Usage: PYTHONPATH=python python3 bench/linear_cross_entropy.py [--shapes llama,qwen2,llama3]
       [--modes eager,inductor,seam,seam-fused,fused] [--steps 10] [--warmup 3] [--return-logits]
--return-logits makes the step also return the bf16 logits, as HF models do (the fused modes then compute
them by a second product for that output)."""
import argparse
import statistics
import sys
import traceback

SHAPES = {  # rows (batch x T), hidden, vocabulary
    "llama": (4 * 2048, 2048, 32000),
    "qwen2": (4 * 2048, 1536, 151936),
    "llama3": (4 * 2048, 2048, 128256),
    "small": (2 * 256, 256, 1024),
}


def make_step(torch, F, mode, return_logits):
    def loss_fn(hidden, weight, labels):
        logits = hidden @ weight.t()
        loss = F.cross_entropy(logits.float().view(-1, weight.shape[0]), labels.view(-1), ignore_index=-100)
        return (loss, logits) if return_logits else (loss,)

    if mode == "eager":
        return loss_fn
    if mode == "inductor":
        return torch.compile(loss_fn)
    if mode == "seam":
        import seam  # noqa: F401 (registers the backend)
        return torch.compile(loss_fn, backend="seam")
    if mode == "seam-fused":
        import seam  # noqa: F401

        def lm_head_loss(hidden, weight, labels):  # F.linear, as nn.Linear records it
            logits = F.linear(hidden, weight)
            loss = F.cross_entropy(logits.float().view(-1, weight.shape[0]), labels.view(-1), ignore_index=-100)
            return (loss, logits) if return_logits else (loss,)

        return torch.compile(lm_head_loss, backend="seam", options={"linear_cross_entropy": True})
    if mode == "fused":
        from seam.torch_backend.fused_linear_cross_entropy import linear_cross_entropy

        def fused(hidden, weight, labels):
            loss = linear_cross_entropy(hidden, weight, labels, ignore_index=-100)
            return (loss, hidden @ weight.t()) if return_logits else (loss,)

        return fused
    raise ValueError(f"unknown mode {mode}")


def make_inputs(torch, shape):
    rows, hidden_size, vocab = shape
    g = torch.Generator(device="cuda").manual_seed(0)
    hidden = (torch.randn(rows, hidden_size, device="cuda", generator=g) * 0.5).bfloat16()
    weight = (torch.randn(vocab, hidden_size, device="cuda", generator=g) * 0.02).bfloat16()
    labels = torch.randint(0, vocab, (rows,), device="cuda", generator=g)
    labels[torch.rand(rows, device="cuda", generator=g) < 0.1] = -100
    return hidden, weight, labels


def fp32_reference(torch, F, hidden, weight, labels):
    h = hidden.float().requires_grad_()
    w = weight.float().requires_grad_()
    loss = F.cross_entropy(h @ w.t(), labels, ignore_index=-100)
    loss.backward()
    return loss.item(), h.grad, w.grad


def run_mode(torch, F, mode, inputs, args, reference):
    hidden, weight, labels = inputs
    hidden = hidden.clone().requires_grad_()
    weight = weight.clone().requires_grad_()
    step = make_step(torch, F, mode, args.return_logits)

    def once():
        hidden.grad = weight.grad = None
        out = step(hidden, weight, labels)
        out[0].backward()
        return out[0]

    for _ in range(args.warmup):
        once()
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    times = []
    for _ in range(args.steps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        loss = once()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    ref_loss, ref_h, ref_w = reference
    result = {"ms": statistics.median(times), "peak_gib": (torch.cuda.max_memory_allocated() - base) / 2**30,
              "loss_dev": abs(loss.item() - ref_loss),
              "dh_dev": ((hidden.grad.float() - ref_h).abs().max() / ref_h.abs().max()).item(),
              "dw_dev": ((weight.grad.float() - ref_w).abs().max() / ref_w.abs().max()).item()}
    if mode == "fused":
        from seam.torch_backend.fused_linear_cross_entropy import chunk_rows
        result["chunk_rows"] = chunk_rows(hidden.shape[0], weight.shape[0], weight.shape[1], 2, hidden.device)
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", default="llama,qwen2,llama3")
    p.add_argument("--modes", default="eager,inductor,seam,seam-fused,fused")
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--return-logits", action="store_true")
    args = p.parse_args()
    import torch
    import torch.nn.functional as F

    print("| shape | rows x hidden x vocab | mode | step ms | peak GiB above inputs | loss dev | grad_h dev | "
          "grad_W dev | rows per chunk |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.shapes.split(","):
        shape = SHAPES[name]
        inputs = make_inputs(torch, shape)
        reference = fp32_reference(torch, F, *inputs)
        torch.cuda.empty_cache()
        for mode in args.modes.split(","):
            try:
                result = run_mode(torch, F, mode, inputs, args, reference)
                print(f"| {name} | {' x '.join(map(str, shape))} | {mode} | {result['ms']:.2f} | "
                      f"{result['peak_gib']:.2f} | {result['loss_dev']:.2e} | {result['dh_dev']:.2e} | "
                      f"{result['dw_dev']:.2e} | {result.get('chunk_rows', '')} |", flush=True)
            except Exception:  # one mode failing leaves the others measured
                print(f"| {name} | {' x '.join(map(str, shape))} | {mode} | failed | | | | | |", flush=True)
                traceback.print_exc(file=sys.stderr)
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
