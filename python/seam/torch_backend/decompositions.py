"""The decomposition table handed to AOT autograd: aten ops that seam has no converter for but whose
PyTorch decompositions use only ops it has (or ops PyTorch then runs). Ops with a converter are not
decomposed: a converter keeps the op's math in one place and is tested against eager. The exception is
the loss path (loss_decompositions.py): log-softmax and nll_loss are decomposed by seam's own functions
so that AOT autograd saves one f32 per row for the backward instead of the [rows, classes] log-softmax."""

from .loss_decompositions import loss_decompositions
from .registry import REGISTRY

_CANDIDATES = (
    "addcmul", "addcdiv", "hardsigmoid", "hardsigmoid_backward", "hardswish", "hardswish_backward", "hardtanh",
    "hardtanh_backward", "leaky_relu", "leaky_relu_backward", "elu", "elu_backward", "softplus",
    "softplus_backward", "mse_loss", "mse_loss_backward", "l1_loss", "smooth_l1_loss", "huber_loss",
    "native_group_norm", "native_group_norm_backward", "clamp_min", "clamp_max", "logsumexp", "var_mean",
    "glu", "glu_backward", "log_sigmoid_forward", "log_sigmoid_backward", "rms_norm",
    "ones_like", "zeros_like", "full_like", "new_zeros", "new_ones", "new_full", "masked_fill",
    "unsqueeze_copy", "expand_copy", "permute_copy", "t_copy", "transpose_copy", "view_copy",
)
# out= and named-dim overloads never appear in AOT autograd's functional graphs.
_SKIPPED_OVERLOADS = ("out", "grad_input", "output", "names", "dimname", "correction_names", "names_dim")


def _alias(x):
    import torch

    return torch.ops.aten.alias.default(x)


def decomposition_table(recompute_saved_outputs=False):
    """aten overload -> decomposition, for the candidates this torch can decompose, minus every overload
    a converter claims; and seam's loss decompositions. `recompute_saved_outputs`: `detach` traced as
    `alias` (a detach does nothing in a traced graph), so that torch 2's min-cut may recompute a value
    autograd saved as an op's output (it reaches the backward through detach, which the min-cut treats as
    an op it cannot fuse, and bans recomputing; the f32 log-softmax of the decomposed loss is one)."""
    from torch._decomp import decomposition_table as table

    claimed = set(REGISTRY.names())
    wanted = {}
    for op, fn in table.items():
        name = str(op)
        parts = name.split(".")
        if len(parts) == 3 and parts[0] == "aten" and parts[1] in _CANDIDATES and name not in claimed and \
                not any(parts[2].endswith(s) for s in _SKIPPED_OVERLOADS):
            wanted[op] = fn
    wanted.update(loss_decompositions())
    if recompute_saved_outputs:
        import torch

        wanted[torch.ops.aten.detach.default] = _alias
    return wanted
