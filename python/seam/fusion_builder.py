"""FusionBuilder: a fusion built from concrete values, the core's way of making one. Its tensor inputs are
declared with every property a compiled fusion depends on (extents, strides, dtype, device), so a built
fusion compiles to exactly one specialization (runner.Specialization), which the caller runs on tensors
of that signature with no further checks. The torch.compile backend builds each region's fusion here;
the nvFuser-compatible FusionDefinition (definition.py) shares the records, handles and `ops` underneath
(recording.py) and adds nvFuser's symbolic inputs.

    fusion = FusionBuilder()
    x = fusion.define_tensor([4, 8], [8, 1], torch.float32, torch.device("cpu"))
    fusion.add_output(fusion.ops.exp(x))
    out, = fusion.compile().run([torch.randn(4, 8)])
"""

import torch

from . import dtypes
from .cache import FusionCache
from .dtypes import DataType
from .handles import Scalar, Tensor
from .lowering import convert
from .recording import Recording
from .records import Record
from .replay import lower, specialize
from .reproducer import dump
from .runner import choose_device

# Compiled specializations of built fusions by their text: identical fusions (every layer's copy of a
# region) compile once. Apart from FusionCache.get(), which holds nvFuser definitions by their text.
_COMPILED = FusionCache()


class FusionBuilder(Recording):
    """Define inputs and constants, call ops through `ops` (fd.ops's semantics: ops.py), mark outputs,
    then compile(). A compiled builder takes no more records."""

    _what = "FusionBuilder"

    def __init__(self):
        super().__init__()
        self._text = None  # the text, once compiled
        self._id = None    # the id of its entry among the compiled fusions

    def _check_open(self):
        if self._text is not None:
            raise RuntimeError("this FusionBuilder is compiled: it takes no more inputs, ops or outputs; "
                               "build a new one")

    def define_tensor(self, sizes, strides, dtype, device):
        """A tensor input of these extents and strides (in elements), torch dtype and torch device. A
        0-dim CPU tensor may join a fusion on the GPU (it is copied there per run)."""
        sizes, strides = [int(s) for s in sizes], [int(s) for s in strides]
        if len(sizes) != len(strides):
            raise ValueError(f"define_tensor: {len(sizes)} sizes and {len(strides)} strides")
        if any(s < 0 for s in sizes):
            raise ValueError(f"define_tensor: negative extent in {sizes}")
        datatype = dtypes.torch_to_datatype(dtype)
        t = self._new(Tensor, len(sizes))
        rec = Record("input_tensor", (sizes, strides, datatype, torch.device(device)), [t], slot=len(self._slots))
        rec.spec = dtypes.to_seam(datatype, "define_tensor dtype")
        self._add_input(rec, f"input {len(self._slots)} ({t.name})")
        return t

    def define_scalar(self, value, dtype=None):
        """A constant (bool, int or float), of `dtype` (a DataType; default: the value's natural one).
        Ops also take Python numbers directly."""
        if not isinstance(value, (bool, int, float)):
            raise TypeError(f"define_scalar: a constant must be a bool, int or float, got {type(value).__name__}")
        if dtype is None:
            dtype = {bool: DataType.Bool, int: DataType.Int, float: DataType.Double}[type(value)]
        seam_dtype = dtypes.to_seam(dtype, "define_scalar dtype")
        s = self._new(Scalar)
        rec = Record("define_scalar", (convert(value, seam_dtype), dtype), [s])
        rec.spec = seam_dtype
        self._add_record(rec)
        return s

    def text(self):
        """The records, one call a line: two builders of the same text compile to the same fusion."""
        if self._text is not None:
            return self._text
        return "\n".join(self._record_text(r) for r in self._records) + "\n"

    def __repr__(self):
        return self.text()

    def id(self):
        """The id of this fusion among the compiled ones (profiles name it); None before compile()."""
        return self._id

    def compile(self, device=None):
        """The specialization of this fusion: compiled on the device of its tensor inputs (0-dim CPU tensors
        aside), or on `device` when it has none (else the GPU when there is one), once per text and device
        in the process. Its run(inputs) takes the tensor inputs in the order they were defined, of the
        declared signature (neither checked nor converted: the caller keys its calls by it)."""
        entry, chosen = self._complete(device)
        spec = entry.specializations.get(chosen)
        if spec is None:
            with entry.lock:
                spec = entry.specializations.get(chosen)
                if spec is None:
                    spec = specialize(self, [None] * len(self._slots), chosen, f"seam_fusion_{entry.id}")
                    dump(spec, self.text)
                    entry.specializations[chosen] = spec
        return spec

    def fusion_ir(self, device=None):
        """seam's fusion (text format) as built, before seam's passes, compiling nothing (`device` as in
        compile(); inputs on the meta device lower for it)."""
        entry, chosen = self._complete(device, meta=True)
        spec = entry.specializations.get(chosen)
        if spec is not None:
            return spec.fusion.text()
        return lower(self, [None] * len(self._slots), chosen, f"seam_fusion_{entry.id}")[0].text()

    def _complete(self, device, meta=False):
        """Ends the building: (the fusion's entry among the compiled ones, the device it runs on). With
        `meta`, inputs on the meta device (nothing to run) give that device."""
        self._text = self.text()
        entry = _COMPILED.entry_for(self._text)
        self._id = entry.id
        devices = [rec.args[3] for rec, _ in self._slots]
        if meta and any(d.type == "meta" for d in devices):
            return entry, torch.device("meta")
        return entry, choose_device(devices, self._slots, device)
