"""The module that runs one region: per input signature (every tensor's dtype, shape, strides, device and
negative bit, every integer's value) a fusion translated and compiled for it, whose specialization each
call of the signature runs on the tensors' memory with outputs PyTorch allocates. A signature seam cannot
take (a converter refuses it, seam raises while compiling) runs the region's aten graph in PyTorch
instead, logged at debug level."""

import collections
import copy
import itertools
import logging
import os
import threading

import torch

from .. import profile
from .node_meta import tensor_info
from .translate import NodeConversionError, region_outputs, translate

log = logging.getLogger("seam.torch_backend")

# Process-wide counts (tests and benchmarks read them): regions run by seam, regions run in PyTorch
# because seam could not take a signature, signatures translated.
STATS = collections.Counter()

_EAGER = object()
_RESOLVED = object()  # a signature with negative-bit tensors: runs as the signature of their resolved copies


class _Split:
    """A signature whose region runs re-partitioned, with the nodes a converter failed on in PyTorch."""

    __slots__ = ("module",)

    def __init__(self, module):
        self.module = module


def _signature(args):
    """Every tensor's dtype, shape, strides, device and negative bit, every other input's type and value:
    everything the compiled specialization assumes of its inputs, so that a call whose signature was seen
    runs it with no other check."""
    return tuple((a.dtype, a.shape, a.stride(), a.device, a.is_neg()) if isinstance(a, torch.Tensor)
                 else (type(a), a) for a in args)


def _has_negative_bit(args):
    """Whether a tensor has PyTorch's negative bit (`z.conj().imag`): its memory holds the negated values."""
    return any(isinstance(a, torch.Tensor) and a.is_neg() for a in args)


def _resolved(args):
    return tuple(a.resolve_neg() if isinstance(a, torch.Tensor) and a.is_neg() else a for a in args)


def _is_an_input(out, args):
    return any(out is a for a in args)


class SeamRegion(torch.nn.Module):
    """Replaces a fused submodule of the partitioned graph; `graph_module` is the aten subgraph, run by
    PyTorch where seam cannot take a signature."""

    def __init__(self, graph_module, settings, name, excluded=frozenset(), repartition=None):
        super().__init__()
        self.graph_module = graph_module
        self.settings = settings
        self.region_name = name
        self._excluded = excluded  # nodes (by name) a converter failed on, left to PyTorch
        # partition.partition_graph, handed in by the partition (which imports this module): splits the
        # region around a node whose converter failed; None: such a failure runs the region in PyTorch.
        self._repartition = repartition
        # Output positions that the enclosing graph returns (partition.py sets them); None: all may.
        self.escaping = None
        self.graph_label = "graph?"  # which compiled graph holds the region (compile.py names it)
        outputs, self._single = region_outputs(graph_module.graph)
        # A region without tensor inputs (masks made from arange) runs where the graph recorded its results.
        infos = [tensor_info(o) for o in outputs if isinstance(o, torch.fx.Node)]
        devices = [i.device for i in infos if i is not None and i.device is not None]
        self._device = devices[0] if devices else "cpu"
        self._cache = {}
        self._prepared = {}  # signature -> Translation made ahead (precompile.py), used on the first run
        self._lock = threading.RLock()  # re-entered by a negative-bit signature's first run

    @property
    def device(self):
        """Where a region without tensor inputs runs."""
        return self._device

    def prepare(self, inputs):
        """The translation for the signature of `inputs` (stand-ins: only dtypes, shapes, strides and
        devices are read), kept for the first run of that signature; None when it is known already or
        the translation fails (the first run then translates, and splits or falls back, as it would)."""
        key = _signature(inputs)
        if key in self._cache or key in self._prepared:
            return None
        try:
            translation = translate(self.graph_module.graph, inputs)
        except Exception as e:  # noqa: BLE001
            log.debug("seam: %s not translated ahead: %s: %s", self.region_name, type(e).__name__, e)
            return None
        self._prepared[key] = translation
        return translation

    def forward(self, *args):
        key = _signature(args)
        entry = self._cache.get(key)
        if entry is None:
            with self._lock:
                entry = self._cache.get(key)
                if entry is None:
                    return self._first_run(key, args)
        if entry is _EAGER:
            STATS["regions_in_pytorch"] += 1
            return self.graph_module(*args)
        if entry is _RESOLVED:
            return self.forward(*_resolved(args))
        if type(entry) is _Split:
            return entry.module(*args)
        return self._run(entry, args)

    def _run(self, translation, args):
        spec = translation.spec
        flat = [args[i] for i in translation.tensor_positions]
        if profile.active():  # inside a PythonProfiler: every run is profiled
            compiled, spec.compile_unreported = spec.compile_unreported, False
            outs, _ = profile.run_profiled(spec, flat, translation.fusion.id(), False, compiled)
        else:
            outs = spec.run(flat)
        results = [None] * len(outs)
        returned = {}  # id of a tensor returned -> its output position
        escaping = self.escaping
        for out, position, must_copy in zip(outs, translation.output_positions, translation.copies):
            # seam writes computed outputs into tensors of their own (in eager's layout), returns an output
            # that equals an input as a view of it, and one that equals another output (two layers' equal
            # masks) as that tensor. An output of an aten op that copies must not alias an input; nor
            # another output where either leaves the graph (a caller may write into it; inside the graph,
            # functional ops only read).
            if must_copy:
                earlier = returned.get(id(out))
                shared = earlier is not None and (escaping is None or position in escaping or earlier in escaping)
                if shared or out._base is not None or _is_an_input(out, args):
                    out = out.clone()
                    STATS["outputs_copied"] += 1
            returned.setdefault(id(out), position)
            results[position] = out
        STATS["regions_in_seam"] += 1
        return results[0] if self._single else tuple(results)

    def _first_run(self, key, args):
        if _has_negative_bit(args):
            # read as PyTorch's kernels read them, through resolved copies: a signature of their own
            self._cache[key] = _RESOLVED
            return self.forward(*_resolved(args))
        try:
            try:
                translation = self._prepared.pop(key, None) or translate(self.graph_module.graph, args)
            except NodeConversionError as e:
                if not self.settings.fallback or self._repartition is None:
                    raise
                return self._split_around(key, args, e)
            translation.compile(self._device)
            result = self._run(translation, args)
            if self.settings.dump_regions:
                self._dump(translation)
            STATS["signatures_compiled"] += 1
            self._cache[key] = translation
            return result
        except Exception as e:
            if not self.settings.fallback:
                raise
            log.debug("seam: region %s runs in PyTorch for this signature: %s: %s", self.region_name,
                      type(e).__name__, e)
            STATS["signatures_in_pytorch"] += 1
            self._cache[key] = _EAGER
            STATS["regions_in_pytorch"] += 1
            return self.graph_module(*args)

    def _dump(self, translation):
        """The fusion this signature ran (CompilationSettings.dump_regions), under a name no other takes."""
        os.makedirs(self.settings.dump_regions, exist_ok=True)
        stem = f"{self.graph_label}_{self.region_name}".replace("/", "_").replace("?", "")
        for n in itertools.count():
            path = os.path.join(self.settings.dump_regions, f"{stem}_{n}.seam")
            if not os.path.exists(path):
                break
        with open(path, "w") as f:
            f.write(translation.spec.fusion.text())

    def _split_around(self, key, args, error):
        """This signature runs with the failed node in PyTorch and the rest of the region re-partitioned
        (nested SeamRegions, which may split again)."""
        log.debug("seam: %s: a converter failed, the node runs in PyTorch: %s", self.region_name, error)
        STATS["nodes_in_pytorch_after_failure"] += 1
        excluded = self._excluded | {error.node.name}
        copy_gm = torch.fx.GraphModule(self.graph_module, copy.deepcopy(self.graph_module.graph))
        split, _ = self._repartition(copy_gm, self.settings, excluded)
        for module in split.modules():
            if isinstance(module, SeamRegion):
                module.graph_label = f"{self.graph_label}/{self.region_name}"
        self._cache[key] = _Split(split)
        return split(*args)

    def extra_repr(self):
        return f"{self.region_name}: {len(self._cache)} signature(s)"
