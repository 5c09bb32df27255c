"""Sums over more terms than a serial f32 sum can count (2^24 equal terms), on the host backend (and the
GPU where there is one), against PyTorch's sum in float64: a sum of 2^25 + 7 terms and sum(x(n, 2),
dims=[0]), as broadcasts of one element, so that nothing large is allocated. SEAM_LARGE_TESTS=1 adds
10^8 terms."""

import os

import pytest
import torch

from seam import FusionDefinition

SIZES = [2 ** 24 + 5, 2 ** 25 + 7] + ([10 ** 8] if os.environ.get("SEAM_LARGE_TESTS") == "1" else [])


@pytest.mark.parametrize("n", SIZES)
def test_sums_of_broadcast_terms_match_float64(n, device):
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1], [True])
        fd.add_output(fd.ops.sum(fd.ops.broadcast_in_dim(a, [n], [0]), [0]))
    x = torch.tensor([0.1], dtype=torch.float32, device=device)
    pair = torch.tensor([0.1, 1.0], dtype=torch.float32, device=device)
    total, = fd.execute([x])
    exact = x.double().expand(n).sum()
    assert abs(total.double() - exact) <= 1e-3 * exact, (total.item(), exact.item())
    with FusionDefinition() as fd2:
        a = fd2.define_tensor([-1], [True])
        fd2.add_output(fd2.ops.sum(fd2.ops.broadcast_in_dim(a, [n, 2], [1]), [0]))
    columns, = fd2.execute([pair])
    exact_columns = pair.double().expand(n, 2).sum(0)
    torch.testing.assert_close(columns.double(), exact_columns, rtol=1e-3, atol=0)
