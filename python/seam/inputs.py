"""execute()'s inputs: flattened (a list in a define_vector input's place spread over its entries), and
tensors whose memory does not hold their values as plain strided elements resolved or refused."""

import torch


NESTED = (list, tuple, torch.Size)


def flatten(inputs, slots):
    """execute()'s inputs with the list given for each `define_vector(n)` input spread over its n
    entries; a list anywhere else is an error naming the input."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"execute() takes a list of inputs, got {type(inputs).__name__}")
    for x in inputs:
        if isinstance(x, NESTED):
            break
    else:
        return list(inputs)
    flat = []
    for x in inputs:
        if isinstance(x, NESTED):
            rec, label = slots[len(flat)] if len(flat) < len(slots) else (None, f"input {len(flat)}")
            if rec is None or rec.kind != "define_vector":
                what = "torch.Tensor" if rec is not None and rec.kind == "define_tensor" else "number"
                raise TypeError(f"{label} must be a {what}, got a {type(x).__name__} (only define_vector inputs "
                                "take a list)")
            flat.extend(x)
        else:
            flat.append(x)
    return flat


STRIDED = torch.strided


def resolve_views(flat, slots):
    """Tensors with PyTorch's negative bit (`z.conj().imag`) hold the negated values in memory: they are
    read as PyTorch's kernels read them, through a resolved copy. Returns the inputs and the positions
    resolved. Tensors of another layout than strided (sparse) are refused, naming the input."""
    flat, resolved = list(flat), set()
    for i, x in enumerate(flat):
        if isinstance(x, torch.Tensor) and x.layout is not STRIDED:
            label = slots[i][1] if i < len(slots) else f"input {i}"
            raise ValueError(f"{label}: a {x.layout} tensor (sparse or another layout without strides); seam "
                             "reads strided (dense) tensors: pass x.to_dense()")
        if isinstance(x, torch.Tensor) and x.is_neg():
            flat[i] = x.resolve_neg()
            resolved.add(i)
    return flat, resolved
