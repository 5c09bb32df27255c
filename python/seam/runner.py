"""Running a specialized fusion on torch tensors: CPU tensors through seam's host backend (copied in and
out), CUDA tensors on the device with no copy, launched on PyTorch's current stream."""

import time

import torch

from . import dtypes, random_state
from ._native import native

_cuda_state = None


def _cuda():
    """(available, reason, ordinal) of seam's CUDA backend, asked once."""
    global _cuda_state
    if _cuda_state is None:
        ok = native.cuda_available()
        _cuda_state = (ok, "" if ok else native.cuda_unavailable_reason(),
                       native.cuda_device_ordinal() if ok else -1)
    return _cuda_state


def input_devices(flat):
    """Per input, the device of a tensor (None for other inputs): what choose_device and Specialization read."""
    return [x.device if isinstance(x, torch.Tensor) else None for x in flat]


def choose_device(devices, slots, requested):
    """The device every tensor input is on (`devices`: per input, its tensor's device or None; 0-dim CPU
    tensors in is_cpu slots excepted), else the requested one, else the GPU when seam and torch both see
    one. An is_cpu slot given a 0-dim tensor on the device is an ordinary device input, as in nvFuser
    (which refuses only the converse)."""
    device, first = None, None
    for at, (rec, label) in zip(devices, slots):
        if at is not None and not (rec.is_cpu_scalar_input and at.type == "cpu"):
            if device is None:
                device, first = at, label
            elif at != device:
                raise ValueError(f"{label} is on {at} but {first} is on {device}: all tensor inputs "
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


def _raw_stream_getter():
    """A function giving the raw current CUDA stream of a device index: torch's private
    _cuda_getCurrentRawStream when it has one (no Stream object per call), else the public way."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda index: torch.cuda.current_stream(index).cuda_stream


_SCRATCH_ALIGNMENT = 256  # what seam's scratch arena asks of the caller's memory


def _inverse(permutation):
    inverse = [0] * len(permutation)
    for position, axis in enumerate(permutation):
        inverse[axis] = position
    return inverse


def _permuted_layout(shape, back):
    """(sizes, strides, inverse) of torch.empty(shape) permuted by `back` as a tensor of its own: its shape
    is shape[back[d]] with the strides a dense `shape` gives those axes; `inverse` permutes it back to
    `shape` (the fusion's view of the same memory)."""
    dense, stride = [0] * len(shape), 1
    for axis in reversed(range(len(shape))):
        dense[axis] = stride
        stride *= max(int(shape[axis]), 1)
    return [shape[axis] for axis in back], [dense[axis] for axis in back], _inverse(back)


def _is_identity(order):
    return list(order) == list(range(len(order)))


def _capturing():
    """Whether torch's current CUDA stream is being captured into a CUDA graph."""
    return torch.cuda.is_current_stream_capturing()


class Specialization:
    """A definition specialized for one input signature, compiled for its backend. Every output is a
    tensor torch allocates (its caching allocator on CUDA) and seam writes, or a view of an input.
    `devices`: per input, the device of its tensor (None for scalars)."""

    def __init__(self, fusion, ctx, outputs, aliases, device, devices):
        self.fusion = fusion
        self.meta = frozenset(ctx.meta)
        self.device = device
        self.backend = "cuda" if device.type == "cuda" else "host"
        self.inputs = list(ctx.fusion_inputs)  # (flat index, seam dtype, is_scalar)
        self.outputs = outputs                  # ("tensor", fusion output, permutation back) | ("scalar", v, dtype)
                                                # | ("input", flat input index, None) | ("dense", ...)
        self.aliases = aliases                  # (fusion output, flat input index) written in place
        self.unseeded_random_ops = ctx.unseeded_random_ops  # hidden (seed, offset) inputs after `flat`
        self.output_types = [(dtypes.torch_dtype(d), tuple(shape)) for d, _, shape in fusion.output_types()]
        # A definition whose outputs are all scalars (or that has none) runs nothing.
        started = time.perf_counter()
        self._executable = native.compile(fusion, self.backend) if self.output_types else None
        # What a profile of this specialization's first run reports as compile time (nvFuser's too).
        self.compile_time_ms = (time.perf_counter() - started) * 1e3
        self.compile_unreported = True
        self._runner = None
        if self._executable is None:
            return
        # On CUDA, every address the runner gets is memory of `device`: the signature holds each tensor's
        # device, and outputs and converted scalars are allocated there. Saying so spares a driver query
        # per buffer and call.
        ordinal = -1
        if self.backend == "cuda":
            ordinal = device.index if device.index is not None else torch.cuda.current_device()
        self._runner = self._executable.runner(ordinal)
        self._slots = [slot for slot, _, _ in self.inputs]
        # Inputs that are not torch tensors of the run's device: scalars (a device buffer per call on
        # CUDA, the value itself on the host backend) and 0-dim CPU tensors of a CUDA run.
        self._converted = []
        for position, (slot, dtype, is_scalar) in enumerate(self.inputs):
            if self.backend == "cuda" and (is_scalar or devices[slot] != device):
                self._converted.append((position, is_scalar, dtypes.torch_dtype(dtype)))
        self._computed, self._views, self._same = [], [], []
        for o, (kind, dtype, shape, strides, offset, input, earlier) in enumerate(self._executable.output_routes()):
            if kind == "computed":
                self._computed.append((o, tuple(shape), dtypes.torch_dtype(dtype)))
            elif kind == "view":
                self._views.append((o, input, tuple(shape), tuple(strides), offset))
            else:
                self._same.append((o, earlier))
        # An output with a stride_order must have that layout: one that is a view of an input (of the
        # input's layout) is copied into a dense tensor of the permuted shape before permuting back.
        viewed = {o for o, *_ in self._views}
        viewed |= {o for o, earlier in self._same if earlier in viewed}
        self.outputs = [("dense", a, b) if kind == "tensor" and b and a in viewed else (kind, a, b)
                        for kind, a, b in self.outputs]
        # A computed output that a stride_order permutes back is allocated in its final layout (torch's
        # empty_strided, laid out once here), so that the caller gets a tensor of its own rather than a
        # view of a buffer: a view would look like an alias to whoever guards against aliasing, and be
        # copied again. An identity order needs nothing.
        shapes = {o: shape for o, shape, _ in self._computed}
        self._layout_of = {}
        for kind, a, b in self.outputs:
            if kind == "tensor" and b and not _is_identity(b) and a in shapes:
                self._layout_of.setdefault(a, _permuted_layout(shapes[a], b))
        self.outputs = [(kind, a, None) if kind == "tensor" and b and _is_identity(b) else (kind, a, b)
                        for kind, a, b in self.outputs]
        self._device_kwargs = {"device": device} if self.backend == "cuda" else {}
        self._stream = _raw_stream_getter() if self.backend == "cuda" else None
        self._stream_index = device.index if self.backend == "cuda" else None

    def executable(self):
        if self._executable is None:
            raise RuntimeError("this definition has no tensor outputs: seam compiled nothing for it")
        return self._executable

    def executable_or_none(self):
        return self._executable

    def launches(self):
        """Whether a run launches anything (a kernel or a library call) that a profile could time."""
        return self._executable is not None and self._executable.num_kernels() > 0

    def run(self, flat, profile_into=None):
        """The outputs; with `profile_into` (a list), the run is profiled and its seam RunProfile appended."""
        if self.unseeded_random_ops and self.backend == "cuda" and _capturing():
            raise RuntimeError("a definition with random ops seeded from torch's generator cannot be captured "
                               "into a CUDA graph: the seed and offset drawn now would repeat on every replay; "
                               "pass rng_seed and rng_offset as inputs")
        if profile_into is not None and self.backend == "cuda" and _capturing():
            raise RuntimeError("a profiled run waits for its kernels, which a stream being captured into a CUDA "
                               "graph does not allow: profile outside the capture")
        if self.unseeded_random_ops:
            flat = flat + random_state.draw(self.device, self.unseeded_random_ops)
        outs, final = self._launch(flat, profile_into) if self._runner is not None else ([], {})
        for out_index, slot in self.aliases:
            flat[slot].copy_(outs[out_index])
        results = []
        for kind, a, b in self.outputs:
            if kind == "tensor":
                if a in final:
                    results.append(final[a])
                else:  # no order, or an output equal to an earlier one of another layout: a view (rare)
                    results.append(outs[a].permute(b) if b else outs[a])
            elif kind == "scalar":
                results.append(torch.tensor(a, dtype=dtypes.torch_dtype(b), device=self.device))
            elif kind == "input":  # the input an alias_input output was written into
                results.append(flat[a])
            else:  # "dense": a view of an input, copied into the layout its stride_order asks for
                sizes, strides, inverse = _permuted_layout(outs[a].shape, b)
                dense = torch.empty_strided(sizes, strides, dtype=outs[a].dtype, device=outs[a].device)
                dense.permute(inverse).copy_(outs[a])
                results.append(dense)
        return results

    def run_reference(self, flat):
        """The outputs as seam's reference interpreter computes them on CPU copies of the inputs (the
        fusion as built, before seam's passes and without generated code), routed as run() routes the
        executable's; inputs are not written."""
        if self.unseeded_random_ops:
            flat = flat + random_state.draw(self.device, self.unseeded_random_ops)
        args = []
        for slot, dtype, is_scalar in self.inputs:
            x = flat[slot]
            if is_scalar:
                x = torch.tensor(x, dtype=dtypes.torch_dtype(dtype))
            args.append((x.cpu(), dtype, is_scalar))
        outs = [torch.empty(shape, dtype=tdtype) for tdtype, shape in self.output_types]
        if self._executable is not None:
            self._executable.run_reference(
                [(x.data_ptr(), dtype, [] if is_scalar else list(x.shape), [] if is_scalar else list(x.stride()))
                 for x, dtype, is_scalar in args],
                [(o.data_ptr(), dtypes.TORCH_TO_SEAM[o.dtype], list(o.shape), list(o.stride())) for o in outs])
        written = {slot: o for o, slot in self.aliases}
        results = []
        for kind, a, b in self.outputs:
            if kind == "tensor":
                results.append(outs[a].permute(b) if b else outs[a])
            elif kind == "scalar":
                results.append(torch.tensor(a, dtype=dtypes.torch_dtype(b)))
            elif kind == "input":
                results.append(outs[written[a]])
            else:
                results.append(outs[a].clone(memory_format=torch.contiguous_format).permute(b))
        return results

    def _launch(self, flat, profile_into=None):
        """Allocates the computed outputs through torch, runs the executable into them and makes the
        outputs that view inputs (nothing runs for those). Returns the outputs in the fusion's shapes and,
        for those a stride_order permutes back, the tensors in the caller's order (same memory)."""
        args = [flat[slot] for slot in self._slots]
        cuda = self.backend == "cuda"
        for position, is_scalar, tdtype in self._converted:
            x = args[position]
            args[position] = torch.full((), x, dtype=tdtype, device=self.device) if is_scalar else x.to(self.device)
        if cuda:
            addresses = [x.data_ptr() for x in args]
        else:  # a scalar input is passed as its value
            addresses = [x.data_ptr() if isinstance(x, torch.Tensor) else x for x in args]
        outs = [None] * len(self.output_types)
        kwargs = self._device_kwargs
        final = {}  # fusion output -> the tensor the caller gets
        for o, shape, tdtype in self._computed:
            layout = self._layout_of.get(o)
            if layout is None:
                outs[o] = torch.empty(shape, dtype=tdtype, **kwargs)
            else:  # the same memory as a dense tensor of the fusion's shape, seen in the caller's order
                sizes, strides, inverse = layout
                final[o] = torch.empty_strided(sizes, strides, dtype=tdtype, **kwargs)
                outs[o] = final[o].permute(inverse)
        buffers = [None if x is None else x.data_ptr() for x in outs]
        stream = self._stream(self._stream_index) if cuda else 0
        if profile_into is None:
            if cuda and _capturing():
                # Captured into a CUDA graph: seam allocates nothing of its own (and does not wait for an
                # indexing op's error record); its intermediates live in memory torch's allocator gives the
                # graph, kept as long as the graph is.
                scratch = torch.empty(self._executable.scratch_bytes() + _SCRATCH_ALIGNMENT, dtype=torch.uint8,
                                      device=self.device)
                start = -scratch.data_ptr() % _SCRATCH_ALIGNMENT
                self._runner.run(addresses, buffers, stream, scratch.data_ptr() + start, scratch.numel() - start)
            else:
                self._runner.run(addresses, buffers, stream)
        else:
            profile_into.append((self._runner.run_profiled(addresses, buffers, stream), stream))
        for o, input, shape, strides, offset in self._views:
            base = args[input]
            outs[o] = base.as_strided(shape, strides, base.storage_offset() + offset)
        for o, earlier in self._same:
            outs[o] = outs[earlier]
            if earlier in final:
                final[o] = final[earlier]
        return outs, final
