"""The converter registry: one entry per aten overload seam claims, with the check that decides, per
graph node, whether seam takes it (dtypes, ranks, arguments). The partitioner asks the same registry, so
a node is in a seam region exactly when a converter says it can translate it."""

import torch

from .node_meta import SEAM_DTYPES, TensorInfo, value_info


class Converter:
    """How one aten overload becomes fd.ops calls on the region's FusionBuilder.

    convert(ctx, *args, **kwargs): args as the node holds them, with graph values replaced by the builder's
        handles (tensors) or Python numbers (integer graph values); returns a handle, or a tuple of them
        (None for outputs not computed) for a multi-output op. The registry casts each result to the
        dtype the graph recorded, so converters may compute in Float.
    supports(node, settings): the overload-specific check; the dtype and device checks common to every
        node run before it.
    compute: False for ops that only move or view data (a region of those alone is left to PyTorch).
    view: True for ops whose aten result is a view of an input (other ops must never return one)."""

    __slots__ = ("name", "convert", "supports", "compute", "view")

    def __init__(self, name, convert, supports, compute, view):
        self.name, self.convert, self.supports, self.compute, self.view = name, convert, supports, compute, view


class ConverterRegistry:
    def __init__(self):
        self._by_name = {}

    def register(self, names, convert, supports=None, compute=True, view=False):
        for name in names:
            if name in self._by_name:
                raise ValueError(f"two converters claim {name}")
            self._by_name[name] = Converter(name, convert, supports, compute, view)

    def get(self, target):
        """The converter of an aten overload (a graph node's target), or None."""
        return self._by_name.get(overload_name(target)) if isinstance(target, torch._ops.OpOverload) else None

    def names(self):
        """Every claimed overload this torch has, sorted (an overload newer than torch is skipped)."""
        return sorted(n for n in self._by_name if resolve(n) is not None)

    def why_not(self, node, settings):
        """None when seam takes `node`, else the reason (for the debug log and the tests)."""
        name = overload_name(node.target)
        conv = self._by_name.get(name)
        if conv is None:
            return f"{name}: no converter"
        if name in settings.torch_executed_ops:
            return f"{name}: forced to PyTorch (torch_executed_ops)"
        reason = _common_check(node)
        if reason is None and conv.supports is not None:
            try:
                ok = conv.supports(node, settings)
            except Exception as e:  # a check that trips over unusual arguments declines the node
                return f"{name}: supports-check raised {type(e).__name__}: {e}"
            reason = None if ok is True or ok is None else (ok if isinstance(ok, str) else "arguments not supported")
        return None if reason is None else f"{name}: {reason}"


def overload_name(target):
    """aten overloads print as 'aten.add.Tensor'; other targets as their name."""
    if isinstance(target, torch._ops.OpOverload):
        return str(target)
    return getattr(target, "__name__", str(target))


def resolve(name):
    """The OpOverload named 'aten.op.overload' in this torch, or None."""
    namespace, op, overload = name.split(".")
    try:  # a missing operator raises RuntimeError on some torch versions, AttributeError on others
        return getattr(getattr(getattr(torch.ops, namespace), op), overload)
    except (AttributeError, RuntimeError):
        return None


def _tensor_infos(node):
    infos = []
    for a in node.all_input_nodes:
        info = value_info(a)
        if isinstance(info, TensorInfo):
            infos.append(info)
    out = value_info(node)
    if isinstance(out, TensorInfo):
        infos.append(out)
    elif isinstance(out, tuple):
        infos.extend(i for i in out if i is not None)
    return infos, out


def _common_check(node):
    infos, out = _tensor_infos(node)
    if out is None:
        return "the graph recorded no dtype/shape for its result"
    for info in infos:
        if info.dtype not in SEAM_DTYPES:
            return f"dtype {info.dtype} (seam computes in {', '.join(str(d) for d in SEAM_DTYPES)})"
    devices = {i.device for i in infos if i.device is not None}
    if len(devices) > 1:
        return f"tensors on several devices {sorted(devices)}"
    if devices and devices.pop() not in ("cpu", "cuda"):
        return "tensors on a device seam does not run on"
    return None


REGISTRY = ConverterRegistry()


def converter(*names, supports=None, compute=True, view=False):
    """Decorator: registers `convert` for the aten overloads `names` ('aten.add.Tensor', ...)."""
    def wrap(convert):
        REGISTRY.register(names, convert, supports, compute, view)
        return convert

    return wrap
