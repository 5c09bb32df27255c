"""Replaying a fusion's records (recording.py: a FusionDefinition's or a FusionBuilder's) on seam's C++
FusionBuilder for concrete inputs (lowering.py's Lowering holds the values): each input checked against
its declaration, each op lowered, the outputs routed, and the result compiled (runner.Specialization)."""

import torch

from . import dtypes
from .descriptors import check_layout, row_major_strides
from .handles import Handle, Tensor
from .lowering import SV, TV, Lowering, fits_64_bits
from .ops import alloc_order
from .runner import Specialization


def specialize(fd, flat, device, name):
    """The recording `fd` specialized for the flattened inputs `flat` on `device` as fusion `name` (lower)
    and compiled for the device's backend."""
    return Specialization(*lower(fd, flat, device, name))


def lower(fd, flat, device, name):
    """The recording `fd` for the flattened inputs `flat` on `device` as fusion `name`, compiling nothing:
    its records replayed on seam's FusionBuilder with every extent known, the outputs routed (views,
    aliases written into inputs, layouts asked with stride_order). Returns what a Specialization is made
    of: (fusion, lowering context, outputs, aliases, device, per input its tensor's device). A builder's
    tensor inputs declare everything; their entries of `flat` are not read."""
    ctx = Lowering(name, flat, device)
    for rec in fd._records:
        ctx.where = fd._record_text(rec)
        lower_record(ctx, rec, flat, fd._slots)
    outputs, aliases, fusion_outputs = [], [], []
    index_of = {}

    def fusion_output(tv):
        if tv.id not in index_of:
            index_of[tv.id] = len(fusion_outputs)
            fusion_outputs.append(tv)
        return index_of[tv.id]

    for handle, alias, stride_order in fd._outputs:
        ctx.where = f"add_output({handle.name})"
        value = ctx.env[handle.index]
        if isinstance(value, SV):
            outputs.append(("scalar", ctx.number(value, "a scalar output"), value.dtype))
            continue
        order = alloc_order(ctx, stride_order, value.rank) if stride_order else value.alloc
        if alias is not None:
            target = ctx.env[alias.index]
            if target.shape != value.shape or target.dtype != value.dtype:
                raise ValueError(f"add_output({handle.name}, alias_input={alias.name}): the output is "
                                 f"{value.dtype}{list(value.shape)}, the input {target.dtype}{list(target.shape)}")
            aliases.append((fusion_output(value), fd.input_slot(alias)))
            continue
        if order:  # the identity too: an output that views an input must still get this layout
            permuted = ctx.permute(value, order)
            back = [order.index(d) for d in range(value.rank)]
            outputs.append(("tensor", fusion_output(permuted), back))
        else:
            outputs.append(("tensor", fusion_output(value), None))
    aliases += [(fusion_output(value), slot) for value, slot in ctx.input_updates]
    # An output whose value is also written into an input (alias_input) is returned as that input,
    # as nvFuser does: one tensor, not a second copy of the values.
    written_into = {o: slot for o, slot in aliases}
    outputs = [("input", written_into[a], None) if kind == "tensor" and b is None and a in written_into
               else (kind, a, b) for kind, a, b in outputs]
    if fusion_outputs:
        fusion = ctx.b.finish([("", tv.id) for tv in fusion_outputs])
    else:
        fusion = _NoFusion()
    devices = [rec.args[3] if rec.kind == "input_tensor" else x.device if isinstance(x, torch.Tensor) else None
               for (rec, _), x in zip(fd._slots, flat)]
    return fusion, ctx, outputs, aliases, device, devices


def lower_record(ctx, rec, flat, slots):
    kind = rec.kind
    if kind == "define_tensor":
        shape, contiguity, dtype, is_cpu, stride_order = rec.args
        t = flat[rec.slot]
        label = slots[rec.slot][1]
        if not isinstance(t, torch.Tensor):
            got = f"scalar {t!r}" if isinstance(t, (bool, int, float, complex)) else f"{type(t).__name__} {t!r}"
            raise TypeError(f"Expected {_nv_label(label)} to be an at::Tensor but got {got} ({label} must be a "
                            "torch.Tensor)")
        if t.dim() != len(shape):
            raise ValueError(f"{label}: expected a tensor of rank {len(shape)}, got rank {t.dim()} "
                             f"(shape {list(t.shape)})")
        want = dtypes.SEAM_TO_TORCH[rec.spec]
        if t.dtype != want:
            raise ValueError(f"Expected {_nv_label(label)} to be bound to a tensor of dtype {_cpp_name(want)}, "
                             f"but got a tensor of dtype {_cpp_name(t.dtype)} ({label}: expected dtype {want} "
                             f"({dtype!r}), got {t.dtype})")
        if is_cpu and t.dim() != 0:
            raise ValueError(f"{label}: declared is_cpu=True, which is for 0-dim tensors; got a "
                             f"{t.dim()}-dim tensor on {t.device}")
        # is_cpu admits a 0-dim CPU tensor into a fusion on any device; a 0-dim tensor on the fusion's
        # device is an ordinary input there (nvFuser takes it too).
        cpu_scalar = is_cpu and t.device.type == "cpu"
        if not cpu_scalar and t.device != ctx.device and not (t.device.type == ctx.device.type == "cpu"):
            raise ValueError(f"{label}: on {t.device}, the fusion runs on {ctx.device}")
        check_layout(label, shape, contiguity, stride_order, list(t.shape), list(t.stride()))
        _tensor_input(ctx, rec, list(t.shape), list(t.stride()))
    elif kind == "input_tensor":  # a builder's: declared with its layout and device
        sizes, strides, dtype, device = rec.args
        if device != ctx.device and not rec.is_cpu_scalar_input and not (device.type == ctx.device.type == "cpu"):
            raise ValueError(f"{slots[rec.slot][1]}: on {device}, the fusion runs on {ctx.device}")
        _tensor_input(ctx, rec, list(sizes), list(strides))
    elif kind == "define_scalar":
        value, dtype = rec.args
        if value is None:
            x = flat[rec.slot]
            _check_scalar(slots[rec.slot][1], x, rec.spec)
            ctx.env[rec.outputs[0].index] = ctx.scalar_input(rec.slot, rec.spec)
        else:
            ctx.env[rec.outputs[0].index] = ctx.constant(value, rec.spec)
    elif kind == "define_vector":
        values, dtype = rec.args
        if isinstance(values, int):
            svs = []
            for i in range(values):
                _check_scalar(slots[rec.slot + i][1], flat[rec.slot + i], "i64")
                svs.append(ctx.scalar_input(rec.slot + i, "i64"))
        else:
            svs = [ctx.resolve(v) if isinstance(v, Handle) else ctx.constant(v, "i64") for v in values]
        ctx.env[rec.outputs[0].index] = svs
    elif kind == "op":
        args = [ctx.resolve(v) for v in rec.args]
        result = rec.spec.lower(ctx, *args)
        results = list(result) if isinstance(result, tuple) else [result]
        for handle, value in zip(rec.outputs, results):
            if isinstance(handle, Tensor) and (not isinstance(value, TV) or value.rank != handle.ndim):
                raise RuntimeError(f"internal error in seam's frontend: {ctx.where} gave "
                                   f"{getattr(value, 'shape', value)}, expected rank {handle.ndim}")
            ctx.env[handle.index] = value


def _tensor_input(ctx, rec, sizes, strides):
    if strides == row_major_strides(sizes):
        strides = []  # the IR's default; keeps fusion_ir() short
    tid = ctx.b.input(rec.spec, sizes, strides, rec.outputs[0].name)
    ctx.fusion_inputs.append((rec.slot, rec.spec, False))
    ctx.input_slots[tid] = rec.slot
    ctx.env[rec.outputs[0].index] = TV(tid, rec.spec, sizes)


class _NoFusion:
    """Stands for the fusion of a definition without tensor outputs."""

    def text(self):
        return "# no tensor outputs: nothing to compile\n"

    def output_types(self):
        return []




def _check_scalar(label, x, dtype):
    if isinstance(x, torch.Tensor):
        what = "a 0-dim tensor (define it with define_tensor)" if x.dim() == 0 else "a tensor"
        raise TypeError(f"Expected {_nv_label(label)} to be a scalar but got {_cpp_name(x.dtype)} tensor of rank "
                        f"{x.dim()} ({label} must be a Python number, got {what} of shape {list(x.shape)})")
    if isinstance(x, complex):
        raise TypeError(f"{label}: Scalar value ({x.real:g},{x.imag:g}) is not compatible with the expected data "
                        f"type: {_cpp_name(dtypes.SEAM_TO_TORCH[dtype])}.")
    if not isinstance(x, (bool, int, float)):
        raise TypeError(f"{label} must be a number, got {type(x).__name__} {x!r}")
    if dtype in dtypes.INTEGER and isinstance(x, float):
        raise TypeError(f"{label} is an integer scalar, got the float {x!r}")
    if isinstance(x, int) and not fits_64_bits(x):
        raise ValueError(f"{label}: the Python int {x} does not fit 64 bits")
    if dtype == "bool" and not isinstance(x, bool):
        raise TypeError(f"{label} is a Bool scalar, got {type(x).__name__} {x!r}")


# The C++ names nvFuser's messages give dtypes.
_CPP_NAMES = {torch.float64: "double", torch.float32: "float", torch.float16: "__half",
              torch.bfloat16: "__bfloat", torch.int64: "int64_t", torch.int32: "int", torch.bool: "bool"}


def _cpp_name(torch_dtype):
    return _CPP_NAMES.get(torch_dtype, str(torch_dtype))


def _nv_label(label):
    """"input 1 (S1, a DataType.Double scalar)" as nvFuser's messages name an input: "input 1, S1,"."""
    position, _, rest = label.partition(" (")
    return f"{position}, {rest.split(',')[0].rstrip(')')},"
