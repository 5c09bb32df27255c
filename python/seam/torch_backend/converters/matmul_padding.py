"""Padding of unaligned matrix-product dimensions. cuBLAS(Lt) picks its fast kernels only where every
matrix's leading dimension and base address are 16-byte aligned; a bf16/f16 extent that is not a multiple
of 8 (GPT-2's vocabulary, 50257) makes some operand or the result unaligned, and the product runs on
`align1` kernels several times slower (GPT-2's lm_head products: 20 of 23.7 ms of matmul on an H100,
where Inductor, which pads, spends 6.6 ms on all of the model's products).

The rule: pad an unaligned M, N or K to a multiple of PAD_MULTIPLE with zeros (zeros along K add nothing
to the sums; rows and columns added along M and N are sliced off the result) where the time the aligned
kernels save exceeds the bytes the padding moves, with a margin. The estimate (`padding_plan`) uses
rates measured on an H100: its aim is to pad the vocabulary-sized products and leave small ones alone,
where a copy would cost more than the slow kernel."""

import sys

import torch

from ..node_meta import recorded_strides

# The multiple an unaligned extent is padded to: 64 elements keeps every tile of cuBLAS's large kernels
# whole, for at most 63 rows or columns of zeros.
PAD_MULTIPLE = 64
# bf16/f16 elements per 16 bytes: an extent that is a multiple of this is aligned.
ALIGNED_ELEMENTS = 8
# Rates (H100, bf16): aligned products about 600 TFLOP/s on these shapes, align1 kernels about 100
# (GPT-2's lm_head: 632 GFLOP in 6-8.8 ms), copies about 3 TB/s.
ALIGNED_FLOPS = 600e12
UNALIGNED_FLOPS = 100e12
COPY_BYTES_PER_S = 3e12
# Pad only where the estimated gain is this many times the estimated cost of the padding.
MARGIN = 2.0


def _padded(extent):
    return -(-extent // PAD_MULTIPLE) * PAD_MULTIPLE


def padding_plan(m, n, k, dtype, batch=1, bias=False):
    """(M', N', K') the product should run at, or None to run it as it is. Operands are a [batch, M, K]
    and b [batch, K, N]; padding M copies a, K both, N b (and the bias); a padded M or N also copies the
    sliced result once (a slice of the padded result is not dense)."""
    if dtype not in (torch.float16, torch.bfloat16):
        return None
    if not all(isinstance(e, int) and e > 0 for e in (m, n, k, batch)):
        return None
    unaligned = [e % ALIGNED_ELEMENTS != 0 for e in (m, n, k)]
    if not any(unaligned):
        return None
    mp, np_, kp = (_padded(e) if u else e for e, u in zip((m, n, k), unaligned))
    element = torch.finfo(dtype).bits // 8
    flops = 2.0 * batch * m * n * k
    gain = flops / UNALIGNED_FLOPS - 2.0 * batch * mp * np_ * kp / ALIGNED_FLOPS
    copied = 0  # bytes written and read again by the padding and the slice
    if mp != m or kp != k:
        copied += 2 * batch * mp * kp * element
    if np_ != n or kp != k:
        copied += 2 * batch * kp * np_ * element
    if mp != m or np_ != n:
        copied += 2 * batch * m * n * element
    if bias and np_ != n:
        copied += 2 * np_ * element
    cost = copied / COPY_BYTES_PER_S
    return (mp, np_, kp) if gain > MARGIN * cost else None


def _stored_transposed(node):
    """Whether the graph value `node` is laid out with its last two dims swapped (a weight's .t())."""
    strides = recorded_strides(node) if isinstance(node, torch.fx.Node) else None
    return strides is not None and len(strides) >= 2 and strides[-1] != 1 and strides[-2] == 1


def _pad_last_two(ctx, x, rows, cols, transposed):
    """x [..., R, C] padded with zeros to [..., R + rows, C + cols], made once per region for one operand
    (a weight read by several products of a region is padded once). An operand stored transposed is padded
    as stored and viewed back, so that the padded copy reads and writes rows rather than a transpose."""
    if not rows and not cols:
        return x
    memo = ctx.memo.setdefault("padded_operands", {})
    key = (x.index, rows, cols)
    if key not in memo:
        if transposed:
            rank = ctx.rank(x)
            swap = list(range(rank - 2)) + [rank - 1, rank - 2]
            stored = ctx.ops.permute(x, swap)
            memo[key] = ctx.ops.permute(ctx.ops.pad(stored, [0, rows, 0, cols] if cols else [0, rows], 0), swap)
        else:
            memo[key] = ctx.ops.pad(x, [0, cols, 0, rows] if rows else [0, cols], 0)
    return memo[key]


_BIG = sys.maxsize  # a slice's end past the extent: to the end


def padded_product(ctx, a, b, product, bias=None):
    """product(a', b'[, bias']) on operands padded where padding_plan says so, sliced back to [.., M, N].
    `a` [.., M, K] and `b` [.., K, N] as the graph holds them (b's dims in product order)."""
    ia, ib = ctx.info(a), ctx.info(b)
    sa, sb = ia.static_shape(), ib.static_shape()
    if sa is None or sb is None or len(sa) < 2 or len(sb) < 2:
        return product(a, b, bias)
    m, k, n = sa[-2], sa[-1], sb[-1]
    batch = 1
    for e in sa[:-2]:
        batch *= e
    plan = padding_plan(m, n, k, ia.dtype, batch, bias is not None)
    if plan is None:
        return product(a, b, bias)
    mp, np_, kp = plan
    operands = [n for n in (ctx.node.args if ctx.node is not None else ()) if isinstance(n, torch.fx.Node)]
    node_a, node_b = (operands[-2], operands[-1]) if len(operands) >= 2 else (None, None)
    a = _pad_last_two(ctx, a, mp - m, kp - k, _stored_transposed(node_a))
    b = _pad_last_two(ctx, b, kp - k, np_ - n, _stored_transposed(node_b))
    if bias is not None and np_ != n:
        if ctx.rank(bias) != 1:
            raise ValueError("a padded product takes a rank-1 bias")
        bias = ctx.ops.pad(bias, [0, np_ - n], 0)
    out = product(a, b, bias)
    rank = max(len(sa), len(sb))
    starts, ends = [0] * rank, [_BIG] * rank
    if mp == m and np_ == n:
        return out
    ends[-2], ends[-1] = m, n
    return ctx.ops.slice(out, starts, ends, [1] * rank)
