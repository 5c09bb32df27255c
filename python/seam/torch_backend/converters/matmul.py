"""Matrix products through seam's matmul and linear (cuBLASLt on the GPU; addmm's bias as linear's
epilogue), bf16/f16 products with an unaligned extent padded where that pays (matmul_padding.py). Off
with CompilationSettings(matmul=False): PyTorch runs them between seam's regions."""

from ..node_meta import FLOATING, tensor_info
from ..registry import converter
from .matmul_padding import padded_product


def _matmul_ok(ranks):
    def check(node, settings):
        if not settings.matmul:
            return "matrix products left to PyTorch (matmul=False)"
        infos = [tensor_info(a) for a in node.args[:len(ranks)]]
        if any(i is None for i in infos):
            return "operands without a recorded dtype"
        if any(i.dtype not in FLOATING for i in infos) or len({i.dtype for i in infos}) != 1:
            return "needs floating operands of one dtype"
        if any(r is not None and i.rank not in r for i, r in zip(infos, ranks)):
            return f"operand ranks {[i.rank for i in infos]}"
        if str(node.target) == "aten.addmm.default":
            beta, alpha = node.kwargs.get("beta", 1), node.kwargs.get("alpha", 1)
            if beta != 1 or alpha != 1:
                return "addmm with beta or alpha other than 1"
        return True

    return check


@converter("aten.mm.default", supports=_matmul_ok([(2,), (2,)]))
def mm(ctx, a, b):
    return padded_product(ctx, a, b, lambda a, b, _: ctx.ops.matmul(a, b))


@converter("aten.bmm.default", supports=_matmul_ok([(3,), (3,)]))
def bmm(ctx, a, b):
    return padded_product(ctx, a, b, lambda a, b, _: ctx.ops.matmul(a, b))


@converter("aten.addmm.default", supports=_matmul_ok([(1, 2), (2,), (2,)]))
def addmm(ctx, bias, a, b, beta=1, alpha=1):
    if ctx.rank(bias) == 1:
        return padded_product(ctx, a, b, lambda a, b, bias: ctx.ops.linear(a, ctx.ops.permute(b, [1, 0]), bias),
                              bias)
    product = padded_product(ctx, a, b, lambda a, b, _: ctx.ops.matmul(a, b))
    return ctx.ops.add(ctx.to_float(product), ctx.to_float(bias))
