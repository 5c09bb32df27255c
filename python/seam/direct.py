"""nvFuser's current frontend (`nvfuser_direct`) as a facade over seam's FusionDefinition.

What differs from the legacy API, and so lives here: the definition prints itself as a function named
`nvfuser_fusion` (what nvFuser's `translate_fusion` gives and its test harness executes), a completed
definition is `fd.fusion` (a `Fusion`), `LRUCache.cache_compile(fusion)` gives the compiled
`FusionExecutorCache` that `fd.execute` then uses (`fd.fec`), `define_vector(n)` is n Int scalar inputs,
and `validate` returns the outputs it checked."""

import collections
import threading

from .definition import FusionDefinition as _SeamDefinition
from .dtypes import DataType
from .handles import Scalar, Tensor
from .reproducer import DirectPrinter

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
            rec.text = DirectPrinter(self).record(rec)
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


