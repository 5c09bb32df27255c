"""Elementwise aten ops: math, comparisons, where, casts and their backward formulas. Operands broadcast
and promote as in PyTorch (the frontend does both); Half and BFloat16 math runs in Float and the registry
rounds each result to the recorded dtype, as PyTorch's kernels round theirs."""

import math

import torch

from ..node_meta import tensor_info
from ..registry import converter
from ._checks import floating_inputs, kwarg

# --- unary float math --------------------------------------------------------------------------------

_UNARY_FLOAT = {
    "exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt", "sin": "sin", "cos": "cos", "tanh": "tanh",
    "sigmoid": "sigmoid", "erf": "erf", "log1p": "log1p", "expm1": "expm1", "reciprocal": "reciprocal",
    "silu": "silu",
}


def _unary(fd_name):
    def convert(ctx, x):
        return getattr(ctx.ops, fd_name)(ctx.to_float(x))

    return convert


for _aten, _fd in _UNARY_FLOAT.items():
    converter(f"aten.{_aten}.default", supports=floating_inputs)(_unary(_fd))


@converter("aten.neg.default")
def neg(ctx, x):
    return ctx.ops.neg(x)


@converter("aten.abs.default")
def abs_(ctx, x):
    return ctx.ops.abs(x)


@converter("aten.relu.default")
def relu(ctx, x):
    return ctx.ops.relu(x)


# --- binary arithmetic -------------------------------------------------------------------------------

def _operand(ctx, x, compute_dtype):
    """A tensor operand in the dtype the op computes in; Python numbers stay numbers."""
    return ctx.cast(x, compute_dtype) if hasattr(x, "ndim") else x


def _compute_dtype(ctx):
    """PyTorch's opmath: Half and BFloat16 results are computed in Float."""
    out = tensor_info(ctx.node).dtype
    return torch.float32 if out in (torch.float16, torch.bfloat16) else out


def _binary(fd_name):
    def convert(ctx, a, b, alpha=None):
        dtype = _compute_dtype(ctx)
        a, b = _operand(ctx, a, dtype), _operand(ctx, b, dtype)
        if alpha is not None and alpha != 1:
            b = ctx.ops.mul(b, alpha)
        return getattr(ctx.ops, fd_name)(a, b)

    return convert


def _alpha_ok(node, settings):
    alpha = node.kwargs.get("alpha", 1)
    return isinstance(alpha, (int, float)) or "alpha must be a number"


converter("aten.add.Tensor", "aten.add.Scalar", supports=_alpha_ok)(_binary("add"))
converter("aten.sub.Tensor", "aten.sub.Scalar", supports=_alpha_ok)(_binary("sub"))
converter("aten.mul.Tensor", "aten.mul.Scalar")(_binary("mul"))
converter("aten.maximum.default")(_binary("maximum"))
converter("aten.minimum.default")(_binary("minimum"))


@converter("aten.div.Tensor", "aten.div.Scalar")
def div(ctx, a, b):
    dtype = _compute_dtype(ctx)  # true division: the recorded result is floating
    return ctx.ops.truediv(_operand(ctx, a, dtype), _operand(ctx, b, dtype))


@converter("aten.rsub.Scalar", "aten.rsub.Tensor", supports=_alpha_ok)
def rsub(ctx, a, b, alpha=1):
    dtype = _compute_dtype(ctx)
    a, b = _operand(ctx, a, dtype), _operand(ctx, b, dtype)
    return ctx.ops.sub(b, ctx.ops.mul(a, alpha) if alpha != 1 else a)


def _pow_ok(node, settings):
    exponent = node.args[1]
    return isinstance(exponent, (int, float)) and not isinstance(exponent, bool) and \
        floating_inputs(node, settings) is True or "needs a floating base and a number exponent"


@converter("aten.pow.Tensor_Scalar", supports=_pow_ok)
def pow_(ctx, x, exponent):
    x = ctx.to_float(x)
    if exponent == 2:  # exact, as PyTorch's kernels special-case it
        return ctx.ops.mul(x, x)
    if exponent == 1:
        return x
    if exponent == 0.5:
        return ctx.ops.sqrt(x)
    if exponent == -0.5:
        return ctx.ops.rsqrt(x)
    if exponent == -1:
        return ctx.ops.reciprocal(x)
    return ctx.ops.pow(x, float(exponent))


def _pow_scalar_ok(node, settings):
    base = node.args[0]
    if not isinstance(base, (int, float)) or isinstance(base, bool):
        return "needs a number base"
    return floating_inputs(node, settings)


@converter("aten.pow.Scalar", supports=_pow_scalar_ok)
def pow_scalar(ctx, base, exponent):
    # a number to a tensor's power (a rotary embedding's base ** (i / d))
    return ctx.ops.pow(float(base), ctx.to_float(exponent))


@converter("aten.pow.Tensor_Tensor", supports=floating_inputs)
def pow_tensor(ctx, x, y):
    return ctx.ops.pow(ctx.to_float(x), ctx.to_float(y))


# --- comparisons, logic, where ---------------------------------------------------------------------

def _compare(fd_name):
    def convert(ctx, a, b):
        # Compare in the promoted dtype of the operands, as PyTorch does (not in Float for two Halfs).
        dtypes = [tensor_info(n).dtype for n in ctx.node.all_input_nodes]
        dtype = dtypes[0]
        for d in dtypes[1:]:
            dtype = torch.promote_types(dtype, d)
        if isinstance(b, float) and not dtype.is_floating_point:
            dtype = torch.float32
        return getattr(ctx.ops, fd_name)(_operand(ctx, a, dtype), _operand(ctx, b, dtype))

    return convert


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    converter(f"aten.{_name}.Tensor", f"aten.{_name}.Scalar")(_compare(_name))


def _bool_operands(node, settings):
    return all(tensor_info(a).dtype == torch.bool for a in node.all_input_nodes) or "bool operands only"


@converter("aten.logical_not.default")
def logical_not(ctx, x):
    return ctx.ops.logical_not(ctx.cast(x, torch.bool))


@converter("aten.bitwise_and.Tensor", supports=_bool_operands)
def bitwise_and(ctx, a, b):
    return ctx.ops.logical_and(a, b)


@converter("aten.bitwise_or.Tensor", supports=_bool_operands)
def bitwise_or(ctx, a, b):
    return ctx.ops.logical_or(a, b)


@converter("aten.bitwise_not.default", supports=_bool_operands)
def bitwise_not(ctx, x):
    return ctx.ops.logical_not(x)


@converter("aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther", "aten.where.Scalar")
def where(ctx, cond, a, b):
    dtype = tensor_info(ctx.node).dtype
    return ctx.ops.where(ctx.cast(cond, torch.bool), _operand(ctx, a, dtype), _operand(ctx, b, dtype))


def _masked_fill_ok(node, settings):
    value = node.args[2]
    return isinstance(value, (int, float, bool)) or "needs a number fill value"


@converter("aten.masked_fill.Scalar", supports=_masked_fill_ok)
def masked_fill(ctx, x, mask, value):
    return ctx.ops.where(mask, value, x)


@converter("aten.clamp.default", supports=lambda n, s: all(
    v is None or isinstance(v, (int, float)) for v in n.args[1:3]) or "needs number bounds")
def clamp(ctx, x, min=None, max=None):
    return ctx.ops.clamp(x, min, max)


# --- casts and copies ---------------------------------------------------------------------------------

def _to_copy_ok(node, settings):
    device = node.kwargs.get("device")
    if device is not None:
        src = tensor_info(node.args[0])
        if src.device is not None and torch.device(device).type != src.device:
            return "a copy to another device"
    if node.kwargs.get("layout") not in (None, torch.strided):
        return "a layout other than strided"
    if node.kwargs.get("memory_format") not in (None, torch.preserve_format, torch.contiguous_format):
        return "a memory format other than contiguous"
    return True


@converter("aten._to_copy.default", supports=_to_copy_ok)
def to_copy(ctx, x, **kwargs):
    return x  # the registry casts to the recorded dtype


@converter("aten.clone.default", "aten.lift_fresh_copy.default", compute=False)
def clone(ctx, x, **kwargs):
    return x


@converter("aten.alias.default", "aten.detach.default", compute=False, view=True)
def alias(ctx, x):
    return x


# --- backward formulas ----------------------------------------------------------------------------

@converter("aten.silu_backward.default", supports=floating_inputs)
def silu_backward(ctx, grad, x):
    grad, x = ctx.to_float(grad), ctx.to_float(x)
    s = ctx.ops.sigmoid(x)
    return ctx.ops.mul(grad, ctx.ops.mul(s, ctx.ops.add(1.0, ctx.ops.mul(x, ctx.ops.sub(1.0, s)))))


@converter("aten.tanh_backward.default", supports=floating_inputs)
def tanh_backward(ctx, grad, y):
    grad, y = ctx.to_float(grad), ctx.to_float(y)
    return ctx.ops.mul(grad, ctx.ops.sub(1.0, ctx.ops.mul(y, y)))


@converter("aten.sigmoid_backward.default", supports=floating_inputs)
def sigmoid_backward(ctx, grad, y):
    grad, y = ctx.to_float(grad), ctx.to_float(y)
    return ctx.ops.mul(grad, ctx.ops.mul(y, ctx.ops.sub(1.0, y)))


@converter("aten.threshold_backward.default", supports=lambda n, s: isinstance(n.args[2], (int, float)))
def threshold_backward(ctx, grad, x, threshold):
    return ctx.ops.where(ctx.ops.le(x, threshold), 0.0 if ctx.dtype(grad).is_floating_point else 0, grad)


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _gelu_ok(node, settings):
    position = 2 if "gelu_backward" in str(node.target) else 1
    approximate = kwarg(node, "approximate", position, "none")
    if approximate not in ("none", "tanh"):
        return f"approximate={approximate!r}"
    return floating_inputs(node, settings)


@converter("aten.gelu.default", supports=_gelu_ok)
def gelu(ctx, x, approximate="none"):
    ops = ctx.ops
    x = ctx.to_float(x)
    if approximate == "tanh":
        inner = ops.mul(_SQRT_2_OVER_PI, ops.add(x, ops.mul(0.044715, ops.mul(x, ops.mul(x, x)))))
        return ops.mul(ops.mul(0.5, x), ops.add(1.0, ops.tanh(inner)))
    return ops.mul(ops.mul(0.5, x), ops.add(1.0, ops.erf(ops.mul(x, 1.0 / math.sqrt(2.0)))))


@converter("aten.gelu_backward.default", supports=_gelu_ok)
def gelu_backward(ctx, grad, x, approximate="none"):
    ops = ctx.ops
    grad, x = ctx.to_float(grad), ctx.to_float(x)
    if approximate == "tanh":
        x2 = ops.mul(x, x)
        inner = ops.mul(_SQRT_2_OVER_PI, ops.add(x, ops.mul(0.044715, ops.mul(x2, x))))
        t = ops.tanh(inner)
        left = ops.mul(0.5, ops.add(1.0, t))
        d_inner = ops.mul(_SQRT_2_OVER_PI, ops.add(1.0, ops.mul(3.0 * 0.044715, x2)))
        right = ops.mul(ops.mul(0.5, x), ops.mul(ops.sub(1.0, ops.mul(t, t)), d_inner))
        return ops.mul(grad, ops.add(left, right))
    cdf = ops.mul(0.5, ops.add(1.0, ops.erf(ops.mul(x, 1.0 / math.sqrt(2.0)))))
    pdf = ops.mul(1.0 / math.sqrt(2.0 * math.pi), ops.exp(ops.mul(-0.5, ops.mul(x, x))))
    return ops.mul(grad, ops.add(cdf, ops.mul(x, pdf)))


def _dropout_backward_ok(node, settings):
    return isinstance(node.args[2], (int, float)) or "needs a number scale"


@converter("aten.native_dropout_backward.default", supports=_dropout_backward_ok)
def native_dropout_backward(ctx, grad, mask, scale):
    g = ctx.to_float(grad)
    return ctx.ops.mul(ctx.ops.mul(g, ctx.cast(mask, torch.float32)), float(scale))
