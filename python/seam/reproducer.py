"""The reproducer: a definition printed as nvFuser prints it (records as calls in the legacy frontend's
style or as the direct frontend's translate_fusion writes them; a script with its inputs), and the dumps
NVFUSER_DUMP asks for."""

import contextlib
import contextvars
import math
import os
import sys

import torch

from .dtypes import DataType
from .handles import Handle, Scalar, Tensor, Vector
from .records import format_value

# Whether a failing execute prints its reproducer: per thread and context (the torch backend compiles
# regions on worker threads), with a process default a test suite may set.
_QUIET = contextvars.ContextVar("seam_reproducers_quiet", default=None)
_quiet_by_default = False


def reproducers_quiet():
    """Whether a failing execute prints no reproducer here."""
    quiet = _QUIET.get()
    return _quiet_by_default if quiet is None else quiet


@contextlib.contextmanager
def quiet_reproducers(quiet=True):
    """Within the block (in this thread), failing executes print no reproducer: the caller handles the
    failure (the torch backend falls back to PyTorch, or translates ahead and retries later)."""
    token = _QUIET.set(quiet)
    try:
        yield
    finally:
        _QUIET.reset(token)


def set_reproducers_quiet_by_default(quiet):
    """The process default (a test suite provoking errors on purpose sets it)."""
    global _quiet_by_default
    _quiet_by_default = bool(quiet)


def input_text(x):
    """The Python that makes a tensor like x: its shape, dtype, device, and strides where they are not
    contiguous (a stride_order input must be reproduced with its strides, or the reproducer fails on the
    strides instead of the original error). The storage spanned comes from the strides alone, which
    every torch version has (untyped_storage is torch 2's)."""
    if isinstance(x, torch.Tensor) and x.layout != torch.strided:
        return f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')  # was {x.layout}"
    if isinstance(x, torch.Tensor):
        made = f"torch.testing.make_tensor({{}}, dtype={x.dtype}, device='{x.device}')"
        if (x.is_contiguous() and x.storage_offset() == 0) or x.numel() == 0:
            return made.format(tuple(x.shape))
        span = x.storage_offset() + 1 + sum((n - 1) * s for n, s in zip(x.shape, x.stride()))
        return (made.format((span,)) +
                f".as_strided({tuple(x.shape)}, {tuple(x.stride())}, {x.storage_offset()})")
    return format_value(x)


def dump(spec, script, capturing=None):
    """NVFUSER_DUMP (or SEAM_PYTHON_DUMP) = comma-separated python_definition, fusion_ir,
    scheduled_fusion_ir, segmented_fusion, cuda_kernel: printed when a specialization is compiled, and
    appended to `capturing` (a list) when given (execute(capture_debug_output=True)). `script` gives the
    definition's text (called only when python_definition is asked for)."""
    wanted = set((os.environ.get("SEAM_PYTHON_DUMP") or os.environ.get("NVFUSER_DUMP") or "").split(","))
    if not wanted - {""}:
        return
    parts = []
    if "python_definition" in wanted:
        parts.append(script())
    if "fusion_ir" in wanted:
        parts.append(spec.fusion.text())
    if spec.output_types:
        exe = spec.executable()
        if "scheduled_fusion_ir" in wanted:
            parts.append(exe.optimized_fusion())
        if "segmented_fusion" in wanted:
            parts.append(exe.segmentation())
        if "cuda_kernel" in wanted:
            parts.append(exe.cuda_source())
    for text in parts:
        print(text, file=sys.stderr)
    if capturing is not None:
        capturing.extend(parts)


def legacy_record_text(rec):
    """A record as nvFuser's legacy frontend prints it: handles by name (T0, S1, V2), every argument
    positionally as recorded."""
    a = rec.args
    if rec.kind == "define_tensor":
        shape, contiguity, dtype, is_cpu, stride_order = a
        text = (f"fd.define_tensor(shape={format_value(shape)}, contiguity={format_value(contiguity)}, "
                f"dtype={dtype!r}, is_cpu={is_cpu}" + (f", stride_order={stride_order}" if stride_order else "")
                + ")")
    elif rec.kind == "input_tensor":  # FusionBuilder's: every property known
        sizes, strides, dtype, device = a
        text = f"fd.define_tensor(sizes={list(sizes)}, strides={list(strides)}, dtype={dtype!r}, device='{device}')"
    elif rec.kind == "define_scalar":
        text = f"fd.define_scalar({format_value(a[0])}, dtype={a[1]!r})"
    elif rec.kind == "define_vector":
        text = f"fd.define_vector({format_value(a[0])}, dtype={a[1]!r})"
    elif rec.kind == "add_output":
        extra = (f", alias_input={a[1].name}" if a[1] is not None else "") + (
            f", stride_order={a[2]}" if a[2] else "")
        text = f"fd.add_output({a[0].name}{extra})"
    else:
        text = f"fd.ops.{rec.spec.name}({', '.join(format_value(v) for v in a)})"
    if rec.outputs:
        text = ", ".join(h.name for h in rec.outputs) + " = " + text
    return text


# --- the direct frontend: what nvFuser's translate_fusion prints ---------------------------------------

_NATURAL = {bool: DataType.Bool, int: DataType.Int, float: DataType.Double}


def _float_text(value):
    if math.isnan(value) or math.isinf(value):
        return f'float("{value}")'
    short = f"{value:.5f}"
    return short if float(short) == value else repr(value)


def _same(value, default):
    """value == default without comparing handles (their == records an op)."""
    if isinstance(value, Handle) or isinstance(default, Handle):
        return value is default
    if isinstance(value, list) or isinstance(default, list):
        return (isinstance(value, list) and isinstance(default, list) and len(value) == len(default)
                and all(_same(v, d) for v, d in zip(value, default)))
    return type(value) is type(default) and value == default


class DirectPrinter:
    """Names and literals of one definition in nvFuser's direct printing style."""

    def __init__(self, fd):
        self.fd = fd
        if not hasattr(fd, "_direct_names"):
            fd._direct_names, fd._direct_constants = {}, {}
            fd._direct_counts = {"tv": 0, "s": 0, "v": 0}

    def name(self, handle):
        names = self.fd._direct_names
        if handle.index not in names:
            prefix = "tv" if isinstance(handle, Tensor) else "s" if isinstance(handle, Scalar) else "v"
            names[handle.index] = f"{prefix}{self.fd._direct_counts[prefix]}"
            self.fd._direct_counts[prefix] += 1
        return names[handle.index]

    def value(self, v):
        if isinstance(v, Handle):
            if v.index in self.fd._direct_constants:
                return self.fd._direct_constants[v.index]
            return self.name(v)
        if isinstance(v, list):
            return "[" + ", ".join(self.value(e) for e in v) + "]"
        if isinstance(v, float):
            return _float_text(v)
        return repr(v)

    def record(self, rec):
        a = rec.args
        if rec.kind == "define_scalar" and a[0] is not None and _NATURAL.get(type(a[0])) == a[1]:
            self.fd._direct_constants[rec.outputs[0].index] = self.value(a[0])
            return ""  # written where it is used
        lhs = ", ".join(self.name(h) for h in rec.outputs)
        lhs = lhs + " = " if lhs else ""
        if rec.kind == "define_tensor":
            shape, contiguity, dtype, is_cpu, stride_order = a
            order = "" if not stride_order or list(stride_order) == list(range(len(shape) - 1, -1, -1)) else \
                f", stride_order={list(stride_order)}"
            return (f"{lhs}fd.define_tensor(shape={list(shape)}, contiguity={contiguity}, dtype={dtype!r}, "
                    f"is_cpu={is_cpu}{order})")
        if rec.kind == "define_scalar":
            return f"{lhs}fd.define_scalar({self.value(a[0])}, dtype={a[1]!r})"
        if rec.kind == "define_vector":
            return f"{lhs}fd.define_vector({self.value(a[0])}, dtype={a[1]!r})"
        if rec.kind == "op" and rec.spec.name == "at" and self._element_of_input_vector(rec):
            vector, i = a
            self.fd._direct_constants[rec.outputs[0].index] = f"{self.name(vector)}[{i}]"
            return ""  # define_vector(n) gives its n scalars as a list
        if rec.kind == "op" and rec.spec.name == "broadcast_in_dim" and _keeps_every_dim(a):
            # broadcast_in_dim that adds no dim is an expand: nvFuser builds the same fusion for both
            return f"{lhs}fd.ops.expand({self.value(a[0])}, {self.value(a[1])})"
        if rec.kind == "add_output":
            extra = (f", alias_input={self.name(a[1])}" if a[1] is not None else "") + (
                f", stride_order={a[2]}" if a[2] else "")
            return f"fd.add_output({self.value(a[0])}{extra})"
        return f"{lhs}fd.ops.{rec.spec.name}({', '.join(self.arguments(rec))})"

    def _element_of_input_vector(self, rec):
        vector, i = rec.args
        return (isinstance(vector, Vector) and isinstance(i, int) and not isinstance(i, bool) and any(
            r.kind == "define_vector" and r.outputs[0] is vector and isinstance(r.args[0], int)
            for r in self.fd._records))

    def arguments(self, rec):
        params = list(rec.spec.signature.parameters.values())
        values, parts = list(rec.args), []
        for i, p in enumerate(params):
            if p.kind is p.VAR_POSITIONAL:
                parts += [self.value(v) for v in values[i:]]
                break
            if i >= len(values):
                break
            v = values[i]
            if p.default is p.empty:
                parts.append(self.value(v))
                continue
            if _same(v, p.default):
                continue
            if p.name == "dims" and rec.spec.name in _NORMALIZED_DIMS and isinstance(v, list) and \
                    all(isinstance(d, int) for d in v) and isinstance(values[0], Tensor) and values[0].ndim:
                v = sorted(d % values[0].ndim for d in v)
            parts.append(f"{p.name}={self.value(v)}")
        return parts


def _keeps_every_dim(args):
    arg, shape, broadcast_dims = args
    return (isinstance(arg, Tensor) and isinstance(broadcast_dims, list)
            and all(isinstance(d, int) and not isinstance(d, bool) for d in broadcast_dims)
            and broadcast_dims == list(range(arg.ndim)) and len(shape) == arg.ndim)


_NORMALIZED_DIMS = frozenset("sum prod max min mean var var_mean welford squeeze".split())
