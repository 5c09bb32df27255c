"""The records of a fusion being defined, common to both frontends: the handles each call hands out, the
op namespace (`ops`) that records an op after the checks its call allows, the inputs in the order a run
takes them, and the outputs. FusionBuilder (fusion_builder.py: inputs of concrete shape, strides, dtype
and device) and the nvFuser-compatible FusionDefinition (definition.py: symbolic inputs) define inputs
their own way on top of it; replay.py turns either into a compiled specialization."""

from .dtypes import DataType
from .handles import Scalar, Tensor, Vector
from .records import KEYWORD_ALIASES, Record, check_arguments, format_value, handles_in, normalize
from .registry import NOT_IMPLEMENTED, OPS
from .reproducer import legacy_record_text

# The record kinds that define a tensor input: nvFuser's symbolic declaration, the builder's concrete one.
TENSOR_INPUTS = frozenset(("define_tensor", "input_tensor"))


class Operators:
    """fd.ops: each op records itself on the fusion being defined."""

    def __init__(self, fd):
        self._fd = fd

    def __getattr__(self, name):
        if name in OPS:
            spec = OPS[name]
            fd = self._fd

            def call(*args, **kwargs):
                return fd._record_op(spec, args, kwargs)

            call.__name__ = name
            return call
        if name in NOT_IMPLEMENTED:
            reason = NOT_IMPLEMENTED[name]

            def unsupported(*args, **kwargs):
                raise NotImplementedError(f"fd.ops.{name} is not supported by seam: {reason}")

            unsupported.__name__ = name
            return unsupported
        raise AttributeError(f"fd.ops has no op '{name}' (nvFuser names it neither)")

    def __dir__(self):
        return sorted(set(OPS) | set(NOT_IMPLEMENTED))


class Recording:
    """Records calls in order. `_slots` lists the run's inputs, one per flattened input: (record, label);
    `_outputs` the outputs as (handle, alias_input handle or None, stride_order or None)."""

    # How messages name this kind of fusion ("T3 belongs to another FusionDefinition").
    _what = "fusion"

    def __init__(self):
        self.ops = Operators(self)
        self._reset()

    def _reset(self):
        self._records = []
        self._handles = 0
        self._slots = []
        self._outputs = []

    def _check_open(self):
        """Raises when the fusion takes no more records (a subclass says when it is complete)."""

    def _new(self, cls, *extra):
        h = cls(self, self._handles, *extra)
        self._handles += 1
        return h

    def _add_record(self, record):
        self._check_open()
        self._records.append(record)
        return record

    def _add_input(self, record, label):
        """Records an input that takes the next position among the run's inputs."""
        self._add_record(record)
        self._slots.append((record, label))

    # --- ops and outputs ----------------------------------------------------------------------------
    def _record_op(self, spec, args, kwargs):
        params = spec.signature.parameters
        for old, new in KEYWORD_ALIASES:
            if old in kwargs and old not in params and new in params and new not in kwargs:
                kwargs[new] = kwargs.pop(old)
        try:
            bound = spec.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"fd.ops.{spec.name}{spec.signature}: {e}") from None
        if isinstance(bound.arguments.get("dims"), DataType) and "dtype" not in bound.arguments:
            # nvFuser's reduction overload op(arg, dtype): every dim, in that dtype
            bound.arguments["dtype"] = bound.arguments.pop("dims")
        bound.apply_defaults()
        check_arguments(spec.name, bound.arguments)
        values = normalize(list(bound.args))
        for v in handles_in(values):
            if v.fd is not self:
                raise ValueError(f"fd.ops.{spec.name}: {v.name} belongs to another {self._what}")
        try:
            out_kinds = spec.out(*values)
        except (AttributeError, TypeError) as e:
            raise TypeError(f"fd.ops.{spec.name}: unexpected arguments {format_value(values)} ({e})") from None
        outputs = []
        for kind in out_kinds:
            if kind[0] == "T":
                outputs.append(self._new(Tensor, kind[1]))
            elif kind[0] == "S":
                outputs.append(self._new(Scalar))
            else:
                outputs.append(self._new(Vector, kind[1]))
        self._add_record(Record("op", values, outputs, spec=spec))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def add_output(self, output, alias_input=None, stride_order=None):
        """Marks `output` an output: with `alias_input`, written into that input tensor in place; with a
        `stride_order`, computed in that allocation order."""
        if isinstance(alias_input, (list, tuple)):  # add_output(T, (2, 1, 0)): the stride_order overload
            alias_input, stride_order = None, alias_input
        if not isinstance(output, (Tensor, Scalar)):
            raise TypeError(f"add_output needs a Tensor or Scalar, got {output!r}")
        if alias_input is not None and not (isinstance(alias_input, Tensor) and isinstance(output, Tensor)):
            raise TypeError("add_output: alias_input must be a Tensor input, aliased by a Tensor")
        if alias_input is not None and self.input_slot(alias_input) is None:
            raise ValueError(f"add_output: alias_input {alias_input.name} is not an input of this definition")
        if stride_order is not None:
            stride_order = [int(s) for s in stride_order]
            if not isinstance(output, Tensor) or sorted(s % max(output.ndim, 1) for s in stride_order) != \
                    list(range(output.ndim)):
                raise ValueError(f"add_output: stride_order {stride_order} is not a permutation of the "
                                 f"output's {getattr(output, 'ndim', 0)} dims")
            stride_order = stride_order or None
        self._add_record(Record("add_output", (output, alias_input, stride_order), []))
        self._outputs.append((output, alias_input, stride_order))

    def input_slot(self, tensor):
        """The position among the run's inputs of the tensor input `tensor`; None if it is none."""
        for i, (rec, _) in enumerate(self._slots):
            if rec.kind in TENSOR_INPUTS and rec.outputs[0] is tensor:
                return i
        return None

    # --- text -----------------------------------------------------------------------------------------
    def _record_text(self, rec):
        if rec.text is None:
            rec.text = legacy_record_text(rec)
        return rec.text

    def _body(self):
        return "\n".join("    " + self._record_text(r) for r in self._records)
