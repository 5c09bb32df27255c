#!/usr/bin/env python3
"""HF transformers models on torch.compile(backend="seam") next to eager and Inductor.

Builds LlamaForCausalLM, Qwen2ForCausalLM and GPT2LMHeadModel from configs (random weights, bf16, no
download, dropout 0 so that every mode computes the same function) and measures, per mode (eager,
inductor, seam), in one process:
  - training step ms: forward with labels + backward, mean of --steps steps after --warmup warm-ups
    (CUDA events around each step),
  - inference forward ms at the same T (torch.no_grad),
  - first-step compile s (wall time of the first training step, and of the first inference forward),
  - peak memory of the training steps (torch.cuda.max_memory_allocated),
  - max deviation of logits, loss and gradients from eager bf16 and from eager fp32 (an fp32 copy of the
    same weights): logits and loss as max |diff|, gradients as max over parameters of
    max |diff| / max |reference|.
A markdown table goes to stdout, progress to stderr, everything to --json-out. Each model and each mode
runs in its own try/except: a failure is recorded and the rest still runs.

With --breakdown, per mode: GPU kernel time by class, kernels and device copies per step, host time above
GPU time, and under seam every step seam ran with its bytes, time and share of the copy rate, with the
region it came from (bench/step_breakdown.py), printed after the table and kept in the JSON.

Usage: PYTHONPATH=python python3 bench/hf_models.py [--models llama,qwen2,gpt2] [--modes eager,inductor,seam]
       (also inductor-ro, seam-ro: mode="reduce-overhead", CUDA graphs)
                                                   [--steps 10] [--warmup 3] [--json-out FILE] [--quick]
                                                   [--breakdown [--breakdown-steps 3]]
"""
import argparse
import json
import sys
import time
import traceback

CONFIGS = {
    # name: (transformers class, config class, config kwargs, batch, T)
    "llama": ("LlamaForCausalLM", "LlamaConfig", dict(
        hidden_size=2048, intermediate_size=5632, num_hidden_layers=4, num_attention_heads=16,
        num_key_value_heads=4, vocab_size=32000, max_position_embeddings=4096), 4, 2048),
    "qwen2": ("Qwen2ForCausalLM", "Qwen2Config", dict(
        hidden_size=1536, intermediate_size=8960, num_hidden_layers=2, num_attention_heads=12,
        num_key_value_heads=2, vocab_size=151936, max_position_embeddings=4096), 2, 2048),
    "gpt2": ("GPT2LMHeadModel", "GPT2Config", dict(
        n_embd=1024, n_layer=4, n_head=16, vocab_size=50257, n_positions=2048, resid_pdrop=0.0,
        embd_pdrop=0.0, attn_pdrop=0.0), 4, 2048),
    # --quick: a small Llama, for a smoke check
    "llama-small": ("LlamaForCausalLM", "LlamaConfig", dict(
        hidden_size=256, intermediate_size=688, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, vocab_size=1024, max_position_embeddings=1024), 2, 256),
}


def progress(msg):
    print(f"[hf_models {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def build(name, torch, transformers, dtype):
    cls_name, cfg_name, kwargs, bs, seq = CONFIGS[name]
    config = getattr(transformers, cfg_name)(**kwargs)
    if hasattr(config, "attention_dropout"):
        config.attention_dropout = 0.0
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = getattr(transformers, cls_name)(config)
    model = model.to(dtype)
    model.train()
    g = torch.Generator(device="cuda").manual_seed(1)
    ids = torch.randint(0, config.vocab_size, (bs, seq), device="cuda", generator=g)
    return model, ids, bs, seq


def train_step(model, ids):
    out = model(input_ids=ids, labels=ids)
    out.loss.backward()
    return out


def capture(model, out, device=None):
    """Logits, loss and every gradient, copied (to `device`: references wait in host memory, so that
    they do not count in the modes' peak GPU memory)."""
    def keep(t):
        t = t.detach()
        return t.to(device) if device is not None else t.clone()

    grads = {n: keep(p.grad) for n, p in model.named_parameters() if p.grad is not None}
    return keep(out.logits), keep(out.loss.float()), grads


def deviation(result, reference):
    """Max |diff| of logits and loss, and the max over parameters of max |diff| / max |reference| of
    the gradients; each reference tensor is brought to the result's device in turn."""
    logits, loss, grads = result
    rlogits, rloss, rgrads = reference
    grad_dev, worst = 0.0, None
    for n, g in rgrads.items():
        if n not in grads:
            return {"error": f"no gradient for {n}"}
        g = g.to(grads[n].device).float()
        scale = g.abs().max().clamp_min(1e-12)
        dev = ((grads[n].float() - g).abs().max() / scale).item()
        if dev > grad_dev or worst is None:
            grad_dev, worst = dev, n
    return {"logits": (logits.float() - rlogits.to(logits.device).float()).abs().max().item(),
            "loss": abs(loss.item() - rloss.item()), "grads_rel": grad_dev, "worst_grad": worst}


def timed(torch, fn, steps, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(steps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return sum(times) / len(times)


def run_mode(mode, model, ids, references, args, torch):
    import torch._dynamo

    torch._dynamo.reset()
    # "-ro": mode="reduce-overhead" (CUDA graphs); each call then starts a new step of torch's CUDA graph
    # trees, so that the previous step's outputs may be overwritten
    kwargs = {"mode": "reduce-overhead"} if mode.endswith("-ro") else {}
    if mode == "eager":
        m = model
    elif mode.startswith("inductor"):
        m = torch.compile(model, **kwargs)
    else:
        import seam  # noqa: F401  (registers backend="seam")
        import seam.torch_backend as tb
        tb.STATS.clear()
        tb.REPORTS.clear()
        options = json.loads(args.seam_options) if args.seam_options else None
        if kwargs and options:
            raise ValueError("torch.compile takes mode or options, not both: --seam-options with a -ro mode")
        m = torch.compile(model, backend="seam", **(kwargs or ({"options": options} if options else {})))
    if kwargs:
        graphed = m

        def m(*a, **k):
            torch.compiler.cudagraph_mark_step_begin()
            return graphed(*a, **k)
    res = {}
    model.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    t = time.perf_counter()
    out = train_step(m, ids)
    torch.cuda.synchronize()
    res["compile_s"] = time.perf_counter() - t
    got = capture(model, out)
    del out
    for ref_name, ref in references.items():
        res[f"dev_vs_{ref_name}"] = deviation(got, ref)
    del got
    progress(f"  {mode}: first step {res['compile_s']:.1f} s; deviation {res.get('dev_vs_eager_bf16')}")

    def step():
        model.zero_grad(set_to_none=True)
        train_step(m, ids)

    model.zero_grad(set_to_none=True)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    res["step_ms"] = timed(torch, step, args.steps, args.warmup)
    res["peak_gib"] = torch.cuda.max_memory_allocated() / 2**30
    model.zero_grad(set_to_none=True)
    with torch.no_grad():
        torch.cuda.synchronize()
        t = time.perf_counter()
        m(input_ids=ids)
        torch.cuda.synchronize()
        res["infer_compile_s"] = time.perf_counter() - t
        res["infer_ms"] = timed(torch, lambda: m(input_ids=ids), args.steps, args.warmup)
    if args.breakdown:
        res["breakdown"] = breakdown(mode, step, res["step_ms"], args, torch)
    if mode.startswith("seam"):
        import seam.torch_backend as tb
        res["seam_stats"] = dict(tb.STATS)
        res["seam_partitions"] = [repr(r) for r in tb.REPORTS]
        refused = {}
        for r in tb.REPORTS:
            refused.update(r.refused)
        res["seam_refused"] = refused
        if args.second_length:
            # Dynamo's dynamic shapes: a second sequence length recompiles the frame once as dynamic;
            # seam specializes underneath per input signature.
            t2 = time.perf_counter()
            model.zero_grad(set_to_none=True)
            train_step(m, ids[:, :args.second_length])
            torch.cuda.synchronize()
            res["second_length_first_step_s"] = time.perf_counter() - t2
    progress(f"  {mode}: step {res['step_ms']:.2f} ms, inference {res['infer_ms']:.2f} ms, "
             f"peak {res['peak_gib']:.2f} GiB")
    return res


def breakdown(mode, step, step_ms, args, torch):
    """Where the step's GPU time goes (bench/step_breakdown.py): kernel time by class over
    --breakdown-steps steps (torch.profiler), and under seam one step with every region execute profiled by
    seam's profiler (bytes, time and share of the copy rate of each of seam's steps, with its region)."""
    import os
    import tempfile

    import step_breakdown as sb

    with tempfile.TemporaryDirectory() as tmp:
        activities = sb.profile_torch_steps(torch, step, args.breakdown_steps, os.path.join(tmp, "trace.json"))
    classes = sb.StepClasses(activities, args.breakdown_steps, step_ms)
    steps, rate = None, None
    if mode.startswith("seam") and not mode.endswith("-ro"):  # a CUDA graph replay runs no region itself
        if args.copy_rate_gbs is None:
            args.copy_rate_gbs = sb.copy_rate_gbs(torch)
        rate = args.copy_rate_gbs
        steps = sb.seam_steps(sb.profile_seam_step(torch, step))
    out = classes.as_dict()
    if steps is not None:
        out["copy_rate_gbs"] = rate
        out["seam_steps"] = [{"region": s.region, "kernel": s.name, "kind": s.kind, "ms": s.time_ms,
                              "bytes": s.bytes, "copy_rate_share": s.copy_rate_share(rate), "grid": s.grid,
                              "block": s.block, "registers": s.registers} for s in steps]
    out["text"] = sb.format_breakdown(f"{args.current_model} {mode}", classes, steps, rate)
    return out


def run_model(name, args, torch, transformers):
    progress(f"{name}: building")
    args.current_model = name
    model, ids, bs, seq = build(name, torch, transformers, torch.bfloat16)
    entry = {"params_M": sum(p.numel() for p in model.parameters()) / 1e6, "bs": bs, "T": seq, "modes": {}}
    references = {}
    try:  # eager references: bf16 and an fp32 copy of the same weights
        model.zero_grad(set_to_none=True)
        references["eager_bf16"] = capture(model, train_step(model, ids), "cpu")
        model.zero_grad(set_to_none=True)
        if not args.no_fp32_reference:
            import copy
            ref32 = copy.deepcopy(model).float()
            references["eager_fp32"] = capture(ref32, train_step(ref32, ids), "cpu")
            del ref32
        torch.cuda.empty_cache()
    except Exception as e:
        entry["reference_error"] = f"{type(e).__name__}: {e}"
        progress(f"{name}: reference failed: {e}")
    for mode in args.modes:
        try:
            entry["modes"][mode] = run_mode(mode, model, ids, references, args, torch)
        except Exception as e:
            entry["modes"][mode] = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-4000:]}
            progress(f"  {mode} failed: {type(e).__name__}: {e}")
        model.zero_grad(set_to_none=True)
        torch.cuda.empty_cache()
    del model, references
    torch.cuda.empty_cache()
    return entry


def fmt(v, spec):
    return format(v, spec) if isinstance(v, (int, float)) else "-"


def table(results):
    lines = ["| model | params | batch x T | mode | step ms | inference ms | compile s (train / infer) | peak GiB "
             "| dev vs bf16 eager (logits / loss / grads rel) | dev vs fp32 eager (logits / loss / grads rel) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, e in results.items():
        if "error" in e:
            lines.append(f"| {name} | - | - | - | error: {e['error']} | | | | | |")
            continue
        for mode, r in e["modes"].items():
            head = f"| {name} | {e['params_M']:.0f} M | {e['bs']} x {e['T']} | {mode} "
            if "error" in r:
                lines.append(head + f"| error: {r['error'][:120]} | | | | | |")
                continue
            devs = []
            for ref in ("eager_bf16", "eager_fp32"):
                d = r.get(f"dev_vs_{ref}", {})
                devs.append(" / ".join(fmt(d.get(k), ".3g") for k in ("logits", "loss", "grads_rel")))
            lines.append(head + f"| {fmt(r.get('step_ms'), '.2f')} | {fmt(r.get('infer_ms'), '.2f')} | "
                         f"{fmt(r.get('compile_s'), '.1f')} / {fmt(r.get('infer_compile_s'), '.1f')} | "
                         f"{fmt(r.get('peak_gib'), '.2f')} | {devs[0]} | {devs[1]} |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default="llama,qwen2,gpt2")
    p.add_argument("--modes", default="eager,inductor,seam")
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--second-length", type=int, default=0,
                   help="seam only: one more training step at this sequence length (dynamic shapes)")
    p.add_argument("--no-fp32-reference", action="store_true")
    p.add_argument("--seam-options", default="",
                   help='CompilationSettings for the seam modes as JSON, e.g. \'{"causal_attention": false}\'')
    p.add_argument("--breakdown", action="store_true",
                   help="per mode, where the step's GPU time goes: kernel time by class, kernels and copies per "
                        "step, host time above GPU time, and every seam step's bytes, time and share of the copy "
                        "rate with its region (bench/step_breakdown.py)")
    p.add_argument("--breakdown-steps", type=int, default=3, help="steps torch.profiler records for --breakdown")
    p.add_argument("--json-out")
    p.add_argument("--quick", action="store_true", help="one small Llama, 3 steps: a smoke check")
    args = p.parse_args()
    if args.quick:
        args.models, args.steps, args.warmup = "llama-small", 3, 1
        args.second_length = args.second_length or 128
    args.copy_rate_gbs = None  # measured once, when a breakdown first needs it
    args.models = [m for m in args.models.split(",") if m]
    args.modes = [m for m in args.modes.split(",") if m]
    for m in args.models:
        if m not in CONFIGS:
            p.error(f"unknown model {m!r}; known: {', '.join(CONFIGS)}")
    import torch
    import transformers

    progress(f"torch {torch.__version__}, transformers {transformers.__version__}, {torch.cuda.get_device_name()}")
    results = {}
    for name in args.models:
        try:
            results[name] = run_model(name, args, torch, transformers)
        except Exception as e:
            results[name] = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-4000:]}
            progress(f"{name} failed: {e}")
        if args.json_out:  # written as it goes: a later failure keeps what ran
            with open(args.json_out, "w") as f:
                json.dump(results, f, indent=1, default=str)
    print(table(results))
    if args.breakdown:
        for entry in results.values():
            for r in entry.get("modes", {}).values():
                if "breakdown" in r:
                    print("\n" + "\n".join(r["breakdown"]["text"]))


if __name__ == "__main__":
    main()
