"""fd.ops.batch_norm as a composition of seam's ops, with nvFuser's semantics (csrc/ops/normalization.cpp):
statistics over every dim but the channel dim (1, or the last with channels_last), the biased variance
for normalizing, and, in training with running stats, the running mean and the running (unbiased)
variance updated in place: running = running * (1 - momentum) + batch * momentum."""

from .lowering import TV
from .ops import _float_input, _mean_keep
from .op_table import OpTable

table = OpTable()
op = table.op


def _batch_norm_out(input, weight, bias, running_mean, running_var, momentum, eps, training,
                    channels_last=False):
    return [("T", input.ndim), ("T", 1), ("T", 1)]


@op("batch_norm", _batch_norm_out)
def _batch_norm(ctx, input, weight, bias, running_mean, running_var, momentum, eps, training,
                channels_last=False):
    x = ctx.tensor(input)
    if x.rank < 2:
        raise ctx.error(f"batch_norm needs an input of rank 2 or more (N, C, ...), got rank {x.rank}")
    if (running_mean is None) != (running_var is None):
        raise ctx.error("batch_norm: running_mean and running_var come together (both or neither)")
    training = bool(ctx.number(training, "training"))
    channel = x.rank - 1 if ctx.number(channels_last, "channels_last") else 1
    channels = x.shape[channel]
    axes = [a for a in range(x.rank) if a != channel]
    others = list(axes)  # the dims a per-channel tensor is broadcast along

    def per_channel(t, what):
        t = ctx.tensor(t, what)
        if t.shape != (channels,):
            raise ctx.error(f"batch_norm: {what} must have shape [{channels}], got {list(t.shape)}")
        return t

    def spread(t):
        """A per-channel [C] tensor broadcast to x's shape."""
        return ctx.expand(ctx.broadcast(t, others), x.shape)

    stats = running_mean is not None
    if stats:
        running_mean = per_channel(running_mean, "running_mean")
        running_var = per_channel(running_var, "running_var")
    if training or not stats:
        xf = _float_input(ctx, x)
        mean_keep = _mean_keep(ctx, xf, axes)  # [C] with reduced dims kept as extent 1
        diff = ctx.arith("sub", [xf, ctx.expand(mean_keep, xf.shape)])
        var_sum = ctx.op("sum", [ctx.arith("mul", [diff, diff])], [("axes", axes), ("keepdim", False)])
        count = 1
        for a in axes:
            count *= x.shape[a]
        invstd = ctx.float_unary("rsqrt", ctx.arith("add", [ctx.arith("div", [var_sum, float(count)]), eps]))
        mean = ctx.op("squeeze", [mean_keep], [("axes", axes)])
        y = ctx.arith("mul", [diff, spread(invstd)])
        if stats:
            keep = ctx.arith("sub", [1.0, momentum])
            unbiased = ctx.arith("div", [var_sum, float(count - 1)])
            for target, batch, what in ((running_mean, mean, "running_mean"), (running_var, unbiased, "running_var")):
                new = ctx.arith("add", [ctx.arith("mul", [target, keep]), ctx.arith("mul", [batch, momentum])])
                ctx.update_input(target, ctx.cast(new, target.dtype), f"batch_norm's {what}")
    else:
        invstd = ctx.float_unary("rsqrt", ctx.arith("add", [running_var, eps]))
        mean = running_mean
        y = ctx.arith("mul", [ctx.arith("sub", [x, spread(running_mean)]), spread(invstd)])
    if weight is not None:
        y = ctx.arith("mul", [y, spread(per_channel(weight, "weight"))])
    if bias is not None:
        y = ctx.arith("add", [y, spread(per_channel(bias, "bias"))])
    assert isinstance(y, TV)
    return y, mean, invstd
