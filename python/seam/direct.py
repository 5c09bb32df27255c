"""nvFuser's current frontend (`nvfuser_direct`) as a facade over seam's FusionDefinition.

What differs from the legacy API, and so lives here: the definition prints itself as a function named
`nvfuser_fusion` (what nvFuser's `translate_fusion` gives and its test harness executes), a completed
definition is `fd.fusion` (a `Fusion`), `LRUCache.cache_compile(fusion)` gives the compiled
`FusionExecutorCache` that `fd.execute` then uses (`fd.fec`), `define_vector(n)` is n Int scalar inputs,
and `validate` returns the outputs it checked."""

import collections
import math
import threading

from .definition import FusionDefinition as _SeamDefinition
from .dtypes import DataType
from .handles import Handle, Scalar, Tensor, Vector

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


class _DirectPrinter:
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

# nvFuser's direct bindings name a tensor of the fusion TensorView and a scalar Val.
TensorView = Tensor
Val = Scalar


class Fusion:
    """A completed definition: what `fd.fusion` and `FusionExecutorCache.fusion()` return. Fusions with
    the same printed definition are the same fusion for the caches."""

    def __init__(self, definition):
        self._definition = definition

    @property
    def key(self):
        return self._definition._entry.body

    def inputs(self):
        return self._definition.inputs()

    def outputs(self):
        return self._definition.outputs()

    def __repr__(self):
        return self._definition._function()

    def print_math(self):
        print(self._definition._function())


class FusionExecutorCache:
    """A fusion ready to execute: seam compiles one executable per input signature when it first meets
    it (the definition's entry in seam's FusionCache holds them), as nvFuser's FusionExecutorCache does."""

    def __init__(self, fusion):
        if not isinstance(fusion, Fusion):
            raise TypeError(f"FusionExecutorCache needs a Fusion (fd.fusion), got {type(fusion).__name__}")
        self._fusion = fusion

    def fusion(self):
        return self._fusion

    def execute(self, inputs, *, device=None, _enable_options=(), _disable_options=()):
        return self._fusion._definition.execute(inputs, device=device, _enable_options=_enable_options,
                                                _disable_options=_disable_options)


class LRUCache:
    """nvFuser's LRUCache of compiled fusions keyed by the fusion's definition: `cache_compile(fusion)`
    returns the cached FusionExecutorCache of an identical fusion, or makes one, evicting the least
    recently used beyond `max_fusions`."""

    def __init__(self, max_fusions=16384):
        if max_fusions < 1:
            raise ValueError(f"LRUCache: max_fusions must be at least 1, got {max_fusions}")
        self._max = max_fusions
        self._entries = collections.OrderedDict()
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    def cache_compile(self, fusion):
        if not isinstance(fusion, Fusion):
            raise TypeError(f"LRUCache.cache_compile needs a Fusion (fd.fusion), got {type(fusion).__name__}")
        with self._lock:
            fec = self._entries.get(fusion.key)
            if fec is not None:
                self._hits += 1
                self._entries.move_to_end(fusion.key)
                return fec
            self._misses += 1
            fec = FusionExecutorCache(fusion)
            self._entries[fusion.key] = fec
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)
            return fec

    def num_fusions(self):
        return len(self._entries)

    def stats(self):
        return (f"LRUCache: {len(self._entries)} fusions (at most {self._max}), {self._hits} hits, "
                f"{self._misses} misses")


class FusionDefinition(_SeamDefinition):
    """nvFuser's direct FusionDefinition on seam: `with FusionDefinition() as fd:`, then `fd.execute`."""

    def _function_name(self):
        return "nvfuser_fusion"

    def __init__(self):
        super().__init__()
        self._fusion = None

    def __exit__(self, exc_type, exc, tb):
        result = super().__exit__(exc_type, exc, tb)
        if exc_type is None:
            self._fusion = Fusion(self)
        return result

    @property
    def fusion(self):
        if hasattr(self, "fec"):
            return self.fec.fusion()
        if self._fusion is None:
            self._ensure_defined()
            self._fusion = Fusion(self)
        return self._fusion

    def define_vector(self, size, dtype=DataType.Int):
        """n Int scalar inputs, as a list (nvFuser's direct API has no vector values); execute takes
        their values as one list (or tuple) in that input's place."""
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise TypeError(f"define_vector(size): size must be an int >= 0, got {size!r}")
        return list(super().define_vector(size, dtype))

    def _function(self):
        return (f"def {self._function_name()}(fd : FusionDefinition) -> None :\n" + (self._body() or "    pass")
                + "\n")

    def _body(self):
        return "\n".join("    " + text for text in map(self._record_text, self._records) if text)

    def _record_text(self, rec):
        """A record as nvFuser's translate_fusion prints it: tensors named tvN, constants of their
        natural dtype written where they are used, operands positional, other arguments by keyword and
        left out where they are the default."""
        if rec.text is None:
            rec.text = _DirectPrinter(self).record(rec)
        return rec.text

    def __str__(self):
        return self._function()

    def _script(self, inputs=None):
        return super()._script(inputs).replace("from nvfuser import", "from nvfuser_direct import")

    def validate(self, inputs, reference_outputs=None, device=None, **kwargs):
        """Executes and compares with `reference_outputs` (without them, with seam's reference
        interpreter); returns the outputs."""
        return self._validated_execute(inputs, reference_outputs, dict(kwargs, device=device))

    def manual_execute(self, inputs, heuristic_params=None):
        raise NotImplementedError("manual_execute: seam schedules every kernel itself (no KernelExecutor with "
                                  "user heuristics); use execute()")


