"""Layer norm forward and backward as seam reductions (computed in Float)."""

from ..registry import converter
from ._checks import floating_inputs


def _axes(ctx, x, normalized_shape):
    rank = ctx.rank(x)
    return list(range(rank - len(normalized_shape), rank))


@converter("aten.native_layer_norm.default", supports=floating_inputs)
def native_layer_norm(ctx, x, normalized_shape, weight, bias, eps):
    ops = ctx.ops
    x = ctx.to_float(x)
    axes = _axes(ctx, x, normalized_shape)
    mean = ops.mean(x, axes, True)
    centered = ops.sub(x, mean)
    var = ops.mean(ops.mul(centered, centered), axes, True)
    rstd = ops.rsqrt(ops.add(var, float(eps)))
    out = ops.mul(centered, rstd)
    if weight is not None:
        out = ops.mul(out, ctx.to_float(weight))
    if bias is not None:
        out = ops.add(out, ctx.to_float(bias))
    return out, mean, rstd


def _backward_ok(node, settings):
    mask = node.args[7]
    if not (isinstance(mask, (list, tuple)) and len(mask) == 3):
        return "output_mask is not three booleans"
    return floating_inputs(node, settings)


@converter("aten.native_layer_norm_backward.default", supports=_backward_ok)
def native_layer_norm_backward(ctx, grad_out, x, normalized_shape, mean, rstd, weight, bias, output_mask):
    ops = ctx.ops
    axes = _axes(ctx, x, normalized_shape)
    outer = list(range(ctx.rank(x) - len(axes)))
    grad_out, x, mean, rstd = (ctx.to_float(v) for v in (grad_out, x, mean, rstd))
    xhat = ops.mul(ops.sub(x, mean), rstd)
    g = ops.mul(grad_out, ctx.to_float(weight)) if weight is not None else grad_out
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        mean_g = ops.mean(g, axes, True)
        mean_gx = ops.mean(ops.mul(g, xhat), axes, True)
        grad_input = ops.mul(rstd, ops.sub(ops.sub(g, mean_g), ops.mul(xhat, mean_gx)))
    if output_mask[1] and weight is not None:
        prod = ops.mul(grad_out, xhat)
        grad_weight = ops.sum(prod, outer, False) if outer else prod
    if output_mask[2] and bias is not None:
        grad_bias = ops.sum(grad_out, outer, False) if outer else grad_out
    return grad_input, grad_weight, grad_bias
