"""torch.compile(backend="seam", mode="reduce-overhead"): the plain-PyTorch Llama's forward and backward
graphs, partitioned into seam regions, captured into CUDA graphs by torch's CUDA graph trees and
replayed; logits, loss and every gradient against eager over several steps with new inputs. Needs a GPU
and a torch with Dynamo (the GPU machine's)."""

import pytest
import torch

import seam
from seam.torch_backend.registration import has_dynamo

pytestmark = [
    pytest.mark.skipif(not (torch.cuda.is_available() and seam.cuda_available()), reason="no GPU for seam and torch"),
    pytest.mark.skipif(not has_dynamo(), reason="this torch has no Dynamo (torch 1.13)"),
]


def test_llama_block_reduce_overhead_matches_eager(monkeypatch):
    import torch._dynamo
    from torch._dynamo.utils import counters

    import seam.runner
    import seam.torch_backend as tb
    from llama_block import TinyLlama

    torch._dynamo.reset()
    counters.clear()
    captured = []
    real_capturing = seam.runner._capturing

    def capturing():
        now = real_capturing()
        captured.append(now)
        return now

    monkeypatch.setattr(seam.runner, "_capturing", capturing)
    torch.manual_seed(0)
    model = TinyLlama(layers=2).cuda()
    reference = TinyLlama(layers=2).cuda()
    reference.load_state_dict(model.state_dict())
    compiled = torch.compile(model, backend="seam", mode="reduce-overhead")
    before = tb.STATS["regions_in_seam"]
    for step in range(4):  # warm-up, recording, then replays
        tokens = torch.randint(0, 64, (2, 9), device="cuda")
        labels = torch.randint(0, 64, (2, 9), device="cuda")
        torch.compiler.cudagraph_mark_step_begin()
        model.zero_grad(set_to_none=True)
        logits, loss = compiled(tokens, labels)
        loss.backward()
        got = (logits.detach().clone(), loss.detach().clone(),
               {n: p.grad.clone() for n, p in model.named_parameters()})
        reference.zero_grad(set_to_none=True)
        ref_logits, ref_loss = reference(tokens, labels)
        ref_loss.backward()
        torch.testing.assert_close(got[0], ref_logits, rtol=5e-3, atol=1e-3, msg=lambda m: f"step {step}: {m}")
        torch.testing.assert_close(got[1], ref_loss, rtol=5e-4, atol=1e-4, msg=lambda m: f"step {step}: {m}")
        for name, p in reference.named_parameters():
            torch.testing.assert_close(got[2][name], p.grad, rtol=5e-3, atol=1e-4,
                                       msg=lambda m: f"step {step}, {name}: {m}")
    assert tb.STATS["regions_in_seam"] > before
    assert counters["inductor"]["cudagraph_skips"] == 0, dict(counters["inductor"])
    assert any(captured), "no seam region ran while a CUDA graph was captured"
