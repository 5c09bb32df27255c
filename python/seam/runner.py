"""Running a specialized fusion on torch tensors: CPU tensors through seam's host backend (copied in and
out), CUDA tensors on the device with no copy, launched on PyTorch's current stream."""

import torch

from . import dtypes
from ._native import native
from .descriptors import row_major_strides

_cuda_state = None


def _cuda():
    """(available, reason, ordinal) of seam's CUDA backend, asked once."""
    global _cuda_state
    if _cuda_state is None:
        ok = native.cuda_available()
        _cuda_state = (ok, "" if ok else native.cuda_unavailable_reason(),
                       native.cuda_device_ordinal() if ok else -1)
    return _cuda_state


def choose_device(flat, slots, requested):
    """The device every tensor input is on (0-dim is_cpu tensors excepted), else the requested one, else
    the GPU when seam and torch both see one."""
    device, first = None, None
    for x, (rec, label) in zip(flat, slots):
        if isinstance(x, torch.Tensor) and not (rec.kind == "define_tensor" and rec.args[3]):
            if device is None:
                device, first = x.device, label
            elif x.device != device:
                raise ValueError(f"{label} is on {x.device} but {first} is on {device}: all tensor inputs "
                                 "must be on one device")
    if device is None:
        if requested is not None:
            device = torch.device("cuda", requested) if isinstance(requested, int) else torch.device(requested)
        elif _cuda()[0] and torch.cuda.is_available():
            device = torch.device("cuda", _cuda()[2])
        else:
            device = torch.device("cpu")
    if device.type == "cuda":
        ok, reason, ordinal = _cuda()
        if not ok:
            raise RuntimeError(f"the inputs are on {device} but seam's CUDA backend is unavailable: {reason}")
        index = device.index if device.index is not None else torch.cuda.current_device()
        if index != ordinal:
            raise ValueError(f"the inputs are on cuda:{index}; seam runs on cuda:{ordinal} (set SEAM_DEVICE "
                             "to choose another device)")
        return torch.device("cuda", index)
    if device.type != "cpu":
        raise ValueError(f"seam runs CPU and CUDA tensors, got inputs on {device}")
    return device


def signature(flat, slots, meta, device):
    """What an executable is specialized for: dtype, extents, strides and device of every tensor, the
    type of every scalar and the value of those that shape the fusion. None until `meta` is known."""
    if meta is None:
        return None
    key = [device]
    for i, x in enumerate(flat):
        if isinstance(x, torch.Tensor):
            key.append((x.dtype, x.shape, x.stride(), x.device))
        else:
            key.append((type(x), x if i in meta else None))
    return tuple(key)


_TYPESTR = {"f64": "<f8", "f32": "<f4", "f16": "<f2", "bf16": "<i2", "i64": "<i8", "i32": "<i4", "bool": "|b1"}




class _DeviceArray:
    """seam-allocated device memory seen through __cuda_array_interface__; the tensor torch makes of it
    keeps this object, and so the memory, alive."""

    def __init__(self, memory, address, shape, strides, dtype):
        size = 2 if dtype == "bf16" else torch.empty((), dtype=dtypes.SEAM_TO_TORCH[dtype]).element_size()
        self._memory = memory
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "strides": tuple(s * size for s in strides), "typestr": _TYPESTR[dtype],
            "data": (address, False), "version": 2}


class Specialization:
    """A definition specialized for one input signature, compiled for its backend."""

    def __init__(self, fusion, ctx, outputs, aliases, device, flat):
        self.fusion = fusion
        self.meta = frozenset(ctx.meta)
        self.device = device
        self.backend = "cuda" if device.type == "cuda" else "host"
        self.inputs = list(ctx.fusion_inputs)  # (flat index, seam dtype, is_scalar)
        # Extents and strides are part of the signature, so they are the same on every call: only the
        # addresses change.
        self.layouts = [([], []) if is_scalar else (list(flat[slot].shape), list(flat[slot].stride()))
                        for slot, _, is_scalar in self.inputs]
        self.outputs = outputs                  # ("tensor", fusion output, permutation back) | ("scalar", v, dtype)
        self.aliases = aliases                  # (fusion output, flat input index) written in place
        self.output_types = [(dtypes.SEAM_TO_TORCH[d], tuple(shape)) for d, _, shape in fusion.output_types()]
        self.output_layouts = [(d, list(shape), row_major_strides(shape)) for d, _, shape in fusion.output_types()]
        # A definition whose outputs are all scalars (or that has none) runs nothing.
        self._executable = native.compile(fusion, self.backend) if self.output_types else None

    def executable(self):
        if self._executable is None:
            raise RuntimeError("this definition has no tensor outputs: seam compiled nothing for it")
        return self._executable

    def run(self, flat):
        if self._executable is None:
            outs = []
        else:
            outs = self._run_host(flat) if self.backend == "host" else self._run_cuda(flat)
        for out_index, slot in self.aliases:
            flat[slot].copy_(outs[out_index])
        results = []
        for kind, a, b in self.outputs:
            if kind == "scalar":
                results.append(torch.tensor(a, dtype=dtypes.SEAM_TO_TORCH[b], device=self.device))
            else:
                results.append(outs[a].permute(b) if b else outs[a])
        return results

    def _run_host(self, flat):
        refs, keep = [], []
        for (slot, dtype, is_scalar), (shape, strides) in zip(self.inputs, self.layouts):
            x = flat[slot]
            if is_scalar:
                x = torch.tensor(x, dtype=dtypes.SEAM_TO_TORCH[dtype])
                keep.append(x)
            refs.append((x.data_ptr(), dtype, shape, strides))
        outs = [torch.empty(shape, dtype=dtype) for dtype, shape in self.output_types]
        self._executable.run_host(refs, [(o.data_ptr(), d, shape, strides)
                                         for o, (d, shape, strides) in zip(outs, self.output_layouts)])
        return outs

    def _run_cuda(self, flat):
        device = self.device
        refs, tensors = [], []
        for (slot, dtype, is_scalar), (shape, strides) in zip(self.inputs, self.layouts):
            x = flat[slot]
            if is_scalar:
                x = torch.full((), x, dtype=dtypes.SEAM_TO_TORCH[dtype], device=device)
            elif x.device.type == "cpu":  # a 0-dim is_cpu tensor
                x = x.to(device)
            refs.append((x.data_ptr(), dtype, shape, strides))
            tensors.append(x)
        stream = torch.cuda.current_stream(device).cuda_stream
        results = self._executable.run_device(refs, stream)
        outs = []
        for (address, dtype, shape, strides, input_index, memory), (tdtype, _) in zip(results, self.output_types):
            if input_index >= 0:  # a view of an input: nothing was launched for it
                base = tensors[input_index]
                offset = (address - base.data_ptr()) // base.element_size()
                outs.append(base.as_strided(shape, strides, base.storage_offset() + offset))
            elif memory is None or 0 in shape:
                outs.append(torch.empty(shape, dtype=tdtype, device=device))
            else:
                t = torch.as_tensor(_DeviceArray(memory, address, shape, strides, dtype), device=device)
                outs.append(t.view(torch.bfloat16) if dtype == "bf16" else t)
        return outs
