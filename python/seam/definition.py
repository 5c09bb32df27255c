"""FusionDefinition: nvFuser's Python API for defining a fusion, recorded call by call. A definition has
symbolic extents; seam's IR has static ones, so execute() specializes the records for the concrete
inputs (lowering.py), compiles the result once per input signature and runs it (runner.py)."""

import math
import os
import sys

import torch

from . import dtypes
from .cache import FusionCache, input_key
from .descriptors import allocation_order, check_layout, compute_tensor_descriptor, row_major_strides
from .dtypes import DataType
from .handles import Handle, Scalar, Tensor, Vector
from .lowering import SV, TV, Lowering, convert, fits_64_bits
from .ops import NOT_IMPLEMENTED, OPS, alloc_order
from .runner import Specialization, choose_device


class Record:
    """One call of the definition: its kind, its arguments (handles inside), the handles it returned and,
    for inputs, its first position among execute()'s flattened inputs."""

    __slots__ = ("kind", "spec", "args", "outputs", "slot", "text")

    def __init__(self, kind, args, outputs, spec=None, slot=None):
        self.kind, self.args, self.outputs, self.spec, self.slot = kind, args, outputs, spec, slot
        self.text = None


def _format(value):
    if isinstance(value, Handle):
        return value.name
    if isinstance(value, DataType):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return f'float("{value}")'
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_format(v) for v in value) + "]"
    return repr(value)


# Keywords that scripts use for a parameter under another name (retired or per-overload spellings).
_KEYWORD_ALIASES = (("dim", "dims"), ("axes", "dims"), ("output_shape", "shape"))


class Operators:
    """fd.ops: each op records itself on the definition."""

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


class _ScheduleOperators:
    """fd.sched: nvFuser's user-schedule ops. seam schedules every kernel itself; each raises."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def unsupported(*args, **kwargs):
            raise NotImplementedError(f"fd.sched.{name}: seam schedules every kernel itself; nvFuser's user "
                                      "schedules are not supported (a schedule() method is not called)")

        return unsupported


class FusionDefinition:
    """nvFuser's FusionDefinition on seam. Use `with FusionDefinition() as fd:` or subclass it with a
    `definition(self)` method; then `fd.execute(inputs)`."""

    def __init__(self, id=None, max_length=9999, use_multidevice_executor=False, backend_type=None):
        self._reset()
        self._selected_device = None
        self.ops = Operators(self)
        self.sched = _ScheduleOperators()
        if id is not None:  # the definition the cache holds under this id
            body = FusionCache.get().body_of(id)
            namespace = {"FusionDefinition": FusionDefinition, "DataType": DataType}
            exec(f"def nvfuser_fusion(fd):\n{body or '    pass'}\n", namespace)
            with self:
                namespace["nvfuser_fusion"](self)

    def _reset(self):
        self._records = []
        self._handles = 0
        self._slots = []       # per flattened execute() input: (record, description)
        self._outputs = []     # (handle, alias_input handle or None, stride_order or None)
        self._entry = None     # the shared cache entry once the definition is complete
        self._last = None      # the specialization the last execute ran
        self._defining = False

    # --- the two ways of defining -----------------------------------------------------------------
    def __enter__(self):
        if self._entry is not None:
            raise RuntimeError(f"this FusionDefinition is already defined (id {self._entry.id}): re-entering `with "
                               "fd:` would start a new definition that the handles of this one do not belong to; "
                               "create a new FusionDefinition")
        self._reset()
        self._defining = True
        return self

    def __exit__(self, exc_type, exc, tb):
        self._defining = False
        if exc_type is None:
            self._finalize()
        return False

    def definition(self):
        raise NotImplementedError("subclass FusionDefinition and define definition(self), or use "
                                  "`with FusionDefinition() as fd:`")

    def schedule(self):
        pass

    def _finalize(self):
        self._entry = FusionCache.get().entry_for(self._body())

    def id(self):
        return None if self._entry is None else self._entry.id

    def _ensure_defined(self):
        if self._entry is not None:
            return
        if not self._records:
            if type(self).definition is FusionDefinition.definition:
                raise NotImplementedError("this FusionDefinition has no definition: define it in a `with "
                                          "FusionDefinition() as fd:` block or subclass it with definition()")
            with self:
                self.definition()
            return
        self._finalize()

    # --- defining inputs ----------------------------------------------------------------------------
    def _new(self, cls, *extra):
        h = cls(self, self._handles, *extra)
        self._handles += 1
        return h

    def _add_record(self, record):
        if self._entry is not None and not self._defining:
            raise RuntimeError("Attempting to add to a completed definition! This FusionDefinition is complete; "
                               "define a new one to add operations")
        self._records.append(record)
        return record

    def define_tensor(self, *args, **kwargs):
        shape, contiguity, dtype, is_cpu, stride_order = _parse_define_tensor(args, kwargs)
        if is_cpu and shape:
            raise ValueError(f"define_tensor: CPU non-scalar tensor is not supported! is_cpu=True declares a "
                             f"0-dim CPU tensor, got shape {shape} (CPU tensors of any rank run with is_cpu=False "
                             "on seam's host backend)")
        seam_dtype = dtypes.to_seam(dtype, "define_tensor dtype")
        t = self._new(Tensor, len(shape))
        rec = Record("define_tensor", (shape, contiguity, dtype, is_cpu, stride_order), [t],
                     slot=len(self._slots))
        rec.spec = seam_dtype
        self._add_record(rec)
        self._slots.append((rec, f"input {len(self._slots)} ({t.name})"))
        return t

    def from_pytorch(self, tensor, static_sizes=False):
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"from_pytorch needs a torch.Tensor, got {type(tensor).__name__}")
        return self.define_tensor(sizes=list(tensor.shape), strides=list(tensor.stride()),
                                  dtype=dtypes.torch_to_datatype(tensor.dtype), static_sizes=static_sizes,
                                  is_cpu=tensor.device.type == "cpu" and tensor.dim() == 0)

    def define_scalar(self, value=None, dtype=None):
        if isinstance(value, DataType) and dtype is None:  # legacy define_scalar(DataType): an input
            value, dtype = None, value
        if value is not None and not isinstance(value, (bool, int, float)):
            if isinstance(value, complex):
                raise NotImplementedError("define_scalar: seam has no complex dtypes")
            raise TypeError(f"define_scalar value must be a number or None, got {type(value).__name__}")
        if dtype is None or dtype == DataType.Null:
            if value is None:
                dtype = DataType.Double
            else:
                dtype = {bool: DataType.Bool, int: DataType.Int, float: DataType.Double}[type(value)]
        seam_dtype = dtypes.to_seam(dtype, "define_scalar dtype")
        if value is not None:
            try:
                value = convert(value, seam_dtype)
            except ValueError as e:
                raise ValueError(f"define_scalar({value!r}, dtype={dtype!r}): {e}") from None
        s = self._new(Scalar)
        rec = Record("define_scalar", (value, dtype), [s], slot=len(self._slots) if value is None else None)
        rec.spec = seam_dtype
        self._add_record(rec)
        if value is None:
            self._slots.append((rec, f"input {len(self._slots)} ({s.name}, a {dtype!r} scalar)"))
        return s

    def define_constant(self, value, dtype=None):
        return self.define_scalar(value, dtype)

    def define_vector(self, values, dtype=DataType.Int):
        if isinstance(values, int) and not isinstance(values, bool):
            if values < 0:
                raise ValueError(f"define_vector: size must be >= 0, got {values}")
            v = self._new(Vector, values)
            rec = Record("define_vector", (values, dtype), [v], slot=len(self._slots))
            self._add_record(rec)
            for i in range(values):
                self._slots.append((rec, f"input {len(self._slots)} ({v.name}[{i}])"))
            return v
        if isinstance(values, (torch.Size, tuple)):
            values = list(values)
        if not isinstance(values, list):
            raise TypeError(f"define_vector needs a list of ints and Scalars or a size, got {type(values).__name__}")
        for e in values:
            if not isinstance(e, (int, Scalar)) or isinstance(e, bool):
                raise TypeError(f"define_vector entries must be ints or Scalars, got {e!r}")
        v = self._new(Vector, len(values))
        self._add_record(Record("define_vector", (values, dtype), [v]))
        return v

    # --- ops and outputs ----------------------------------------------------------------------------
    def _record_op(self, spec, args, kwargs):
        params = spec.signature.parameters
        for old, new in _KEYWORD_ALIASES:
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
        _check_arguments(spec.name, bound.arguments)
        values = _normalize(list(bound.args))
        for v in _handles_in(values):
            if v.fd is not self:
                raise ValueError(f"fd.ops.{spec.name}: {v.name} belongs to another FusionDefinition")
        try:
            out_kinds = spec.out(*values)
        except (AttributeError, TypeError) as e:
            raise TypeError(f"fd.ops.{spec.name}: unexpected arguments {_format(values)} ({e})") from None
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
        if isinstance(alias_input, (list, tuple)):  # add_output(T, (2, 1, 0)): the stride_order overload
            alias_input, stride_order = None, alias_input
        if not isinstance(output, (Tensor, Scalar)):
            raise TypeError(f"add_output needs a Tensor or Scalar, got {output!r}")
        if alias_input is not None and not (isinstance(alias_input, Tensor) and isinstance(output, Tensor)):
            raise TypeError("add_output: alias_input must be a Tensor input, aliased by a Tensor")
        if alias_input is not None and not any(r.kind == "define_tensor" and r.outputs[0] is alias_input
                                               for r in self._records):
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

    # --- the reproducer ---------------------------------------------------------------------------------
    def _record_text(self, rec):
        if rec.text is not None:
            return rec.text
        a = rec.args
        if rec.kind == "define_tensor":
            shape, contiguity, dtype, is_cpu, stride_order = a
            text = (f"fd.define_tensor(shape={_format(shape)}, contiguity={_format(contiguity)}, "
                    f"dtype={dtype!r}, is_cpu={is_cpu}" + (f", stride_order={stride_order}" if stride_order else "")
                    + ")")
        elif rec.kind == "define_scalar":
            text = f"fd.define_scalar({_format(a[0])}, dtype={a[1]!r})"
        elif rec.kind == "define_vector":
            text = f"fd.define_vector({_format(a[0])}, dtype={a[1]!r})"
        elif rec.kind == "add_output":
            extra = (f", alias_input={a[1].name}" if a[1] is not None else "") + (
                f", stride_order={a[2]}" if a[2] else "")
            text = f"fd.add_output({a[0].name}{extra})"
        else:
            text = f"fd.ops.{rec.spec.name}({', '.join(_format(v) for v in a)})"
        if rec.outputs:
            text = ", ".join(h.name for h in rec.outputs) + " = " + text
        rec.text = text
        return text

    def _body(self):
        return "\n".join("    " + self._record_text(r) for r in self._records)

    def _function(self):
        """The definition as nvFuser prints it: a function taking the FusionDefinition (its name on the
        second line, where nvFuser's tests look for it)."""
        return (f"# seam: nvFuser's FusionDefinition API\n"
                f"def nvfuser_fusion_id{self.id() or 0}(fd : FusionDefinition) -> None :\n"
                + (self._body() or "    pass") + "\n")

    def _script(self, inputs=None):
        """A runnable reproducer: imports, the function, its use, and the inputs when given."""
        lines = ["# A seam reproducer (nvFuser's API; python/ of seam on PYTHONPATH)", "import torch",
                 "from nvfuser import FusionDefinition, DataType", "", self._function(),
                 "with FusionDefinition() as fd:", f"    nvfuser_fusion_id{self.id() or 0}(fd)"]
        if inputs is not None:
            try:
                flat = _flatten(inputs, self._slots)
            except TypeError:  # the reproducer of a call with a wrong input shows it as given
                flat = list(inputs)
            lines += ["", "inputs = ["] + [f"    {_input_text(x)}," for x in flat] + [
                "]", "fd.execute(inputs)"]
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return self._function()

    def __str__(self):
        return self._script()

    def _repro_error_str(self, section, inputs):
        return (f"An error occurred while {section} seam's FusionDefinition {self.id()}.\n"
                f"Here's a script to reproduce the error:\n```python\n{self._script(inputs)}```\n")

    def segment(self, inputs):
        """seam's segmentation for `inputs` (nvFuser splits the definition; seam only reports)."""
        return self.segmentation_for(inputs)

    @property
    def segment_index_space_maps(self):
        raise NotImplementedError("segment_index_space_maps: seam does not split a FusionDefinition into "
                                  "per-segment definitions; fd.segment(inputs) returns seam's segmentation report")

    def repro_script_for(self, inputs):
        return self._script(inputs)

    def last_repro_script(self):
        if self._last_inputs is None:
            raise RuntimeError("last_repro_script needs execute(..., save_repro_inputs=True) first")
        return self._script(self._last_inputs)

    _last_inputs = None

    # --- executing ------------------------------------------------------------------------------
    def execute(self, inputs, *, device=None, override_user_schedule=False, capture_debug_output=False,
                print_repro=False, profile=False, save_repro_inputs=False, _enable_options=(),
                _disable_options=()):
        """Runs the fusion on `inputs` (tensors, numbers and lists of numbers, in definition order) and
        returns its outputs as a list of torch.Tensor in add_output order."""
        entry = self._entry
        if entry is None:
            self._ensure_defined()
            entry = self._entry
        if profile:
            raise NotImplementedError("execute(profile=True): seam has no fusion profiler; time kernels with "
                                      "torch.profiler or Nsight Systems")
        if "matmul_expr_eval" in _disable_options:
            self._refuse_matmul_without_library()
        if capture_debug_output:
            return self._execute_capturing(inputs, device=device, print_repro=print_repro,
                                           save_repro_inputs=save_repro_inputs)
        if print_repro:
            print(self._script(inputs))
        if save_repro_inputs:
            self._last_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in _flatten(inputs, self._slots)]
        try:
            flat = _flatten(inputs, self._slots)
            resolved = None
            for x in flat:  # tensors whose memory does not hold their values as strided elements
                if isinstance(x, torch.Tensor) and (x.is_neg() or x.layout is not _STRIDED):
                    flat, resolved = _resolve_views(flat, self._slots)
                    break
            requested = device if device is not None else self._selected_device
            # The fast key implies everything the full checks look at, so a hit skips them; a miss (a new
            # signature or a wrong input) takes the full path, with its checks and their messages.
            try:
                key = entry.fast_key(flat, requested)
            except RuntimeError:  # a tensor without strides (sparse): the full path says what is wrong
                key = None
            spec = entry.fast.get(key) if key is not None else None
            if spec is None:
                spec = self._specialization(flat, device)
                key = entry.fast_key(flat, requested)
                if key is not None:
                    entry.fast[key] = spec
            self._last = spec
            if resolved:
                self._refuse_written_negative_views(spec, resolved)
            return spec.run(flat)
        except Exception:
            if not getattr(sys, "_seam_quiet", False):
                print(self._repro_error_str("executing", inputs), file=sys.stderr)
            raise

    def _refuse_written_negative_views(self, spec, resolved):
        """An input the fusion writes in place (alias_input, batch_norm's running stats) cannot be read
        through a resolved copy: the write would land in the copy."""
        for _, slot in spec.aliases:
            if slot in resolved:
                raise ValueError(f"{self._slots[slot][1]} has PyTorch's negative bit set (a view such as "
                                 "z.conj().imag) and is written in place (alias_input or running stats), which "
                                 "needs its own memory: pass x.resolve_neg() or a clone")

    def _refuse_matmul_without_library(self):
        """nvFuser's matmul_expr_eval option off asks for a generated matmul kernel instead of the library
        call; seam generates none (matmul and linear are cuBLASLt calls), so such a fusion has no
        schedule, as nvFuser reports when its own matmul scheduler declines one."""
        products = sorted({r.spec.name for r in self._records
                           if r.kind == "op" and r.spec.name in ("matmul", "linear")})
        if products:
            raise RuntimeError(f"Can not find a scheduler to schedule fusion segment: {', '.join(products)} with "
                               "matmul_expr_eval disabled needs a generated matmul kernel, and seam runs matmul "
                               "and linear only as cuBLASLt calls")

    _capturing = None     # the dump texts of the execute(capture_debug_output=True) under way
    _debug_output = None

    def _execute_capturing(self, inputs, **kwargs):
        self._capturing = []
        try:
            return self.execute(inputs, **kwargs)
        finally:
            self._debug_output = "\n".join(self._capturing)
            self._capturing = None

    def debug_output(self):
        """What seam's dumps (NVFUSER_DUMP) printed during the last execute(capture_debug_output=True)
        ("" when it compiled nothing or nothing was asked for); None before any such execute."""
        return self._debug_output

    def profile(self):
        raise NotImplementedError("FusionDefinition.profile(): seam has no fusion profiler; time kernels with "
                                  "torch.profiler or Nsight Systems")

    def _specialization(self, flat, device=None):
        if len(flat) != len(self._slots):
            expected = ", ".join(d for _, d in self._slots) or "none"
            raise ValueError(f"the definition takes {len(self._slots)} inputs ({expected}), got {len(flat)}")
        entry = self._entry
        dev = choose_device(flat, self._slots, device if device is not None else self._selected_device)
        key = input_key(flat, entry.meta, dev) if entry.meta is not None else None
        spec = entry.specializations.get(key) if key is not None else None
        if spec is None:
            with entry.lock:
                spec = entry.specializations.get(key) if key is not None else None
                if spec is None:
                    spec = self._specialize(flat, dev)
                    _dump(self, spec)
                    entry.meta = spec.meta
                    key = input_key(flat, entry.meta, dev)
                    entry.specializations[key] = spec
        self._last = spec
        return spec

    def _specialize(self, flat, device):
        ctx = Lowering(f"nvfuser_fusion_id{self.id()}", flat, device)
        for rec in self._records:
            ctx.where = self._record_text(rec)
            _lower_record(ctx, rec, flat, self._slots)
        outputs, aliases, fusion_outputs = [], [], []
        index_of = {}

        def fusion_output(tv):
            if tv.id not in index_of:
                index_of[tv.id] = len(fusion_outputs)
                fusion_outputs.append(tv)
            return index_of[tv.id]

        for handle, alias, stride_order in self._outputs:
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
                aliases.append((fusion_output(value), _input_slot(self, alias)))
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
        return Specialization(fusion, ctx, outputs, aliases, device, flat)

    # --- introspection ------------------------------------------------------------------------------
    def _last_or_error(self, what):
        if self._last is None:
            raise RuntimeError(f"Invalid fusion definition! {what}: seam specializes a definition for its "
                               f"inputs; call execute() first (or the *_for(inputs) form)")
        return self._last

    def fusion_ir(self):
        """seam's fusion (text format) for the inputs of the last execute()."""
        return self._last_or_error("fusion_ir").fusion.text()

    def fusion_ir_for(self, inputs):
        self._ensure_defined()
        return self._specialization(_flatten(inputs, self._slots)).fusion.text()

    def last_scheduled_fusion_ir(self, tensor_transforms=False, override_user_schedule=False):
        return self._last_or_error("last_scheduled_fusion_ir").executable().optimized_fusion()

    def scheduled_fusion_ir_for(self, inputs, tensor_transforms=False, override_user_schedule=False):
        self._ensure_defined()
        return self._specialization(_flatten(inputs, self._slots)).executable().optimized_fusion()

    def last_cuda_code(self, intrinsic_code=False, override_user_schedule=False):
        return self._last_or_error("last_cuda_code").executable().cuda_source()

    def cuda_code_for(self, inputs, intrinsic_code=False, override_user_schedule=False):
        self._ensure_defined()
        return self._specialization(_flatten(inputs, self._slots)).executable().cuda_source()

    def last_segmentation(self):
        """seam's segmentation of the last execute(): kernels, values, boundary bytes, proven optimal?"""
        return self._last_or_error("last_segmentation").executable().segmentation()

    def segmentation_for(self, inputs):
        self._ensure_defined()
        return self._specialization(_flatten(inputs, self._slots)).executable().segmentation()

    def inputs(self):
        return [r.outputs[0].index for r, _ in self._slots if r.kind != "define_vector"]

    def outputs(self):
        return [h.index for h, alias, _ in self._outputs if alias is None]

    def extents(self):
        """nvFuser's ids of the symbolic extents (shape -1) of the tensor inputs: -1, -2, ... in input and
        dim order (static extents are constants, not values of the definition)."""
        count = sum(1 for r, _ in self._slots if r.kind == "define_tensor" for e in r.args[0] if e == -1)
        return list(range(-1, -count - 1, -1))

    def validate(self, inputs, reference_outputs=None, **kwargs):
        """Runs the fusion and compares with `reference_outputs` (torch.testing.assert_close). Without
        them, the reference is seam's interpreter (the fusion as built, before seam's passes, evaluated
        op by op on CPU copies of the inputs)."""
        self._validated_execute(inputs, reference_outputs, kwargs)

    def _validated_execute(self, inputs, reference_outputs, kwargs):
        if reference_outputs is None:
            reference_outputs = self._reference_outputs(inputs, kwargs.get("device"))
        outputs = self.execute(inputs, **kwargs)
        self._compare(outputs, reference_outputs)
        return outputs

    def _reference_outputs(self, inputs, device):
        """The interpreter's outputs for `inputs`, computed before the fusion runs (which may write
        inputs in place); unseeded random ops draw the seed that the execute after it draws again."""
        self._ensure_defined()
        flat = _flatten(inputs, self._slots)
        spec = self._specialization(flat, device)
        state = None
        if spec.unseeded_random_ops:
            state = (torch.random.get_rng_state(), torch.cuda.get_rng_state(spec.device)
                     if spec.device.type == "cuda" else None)
        references = spec.run_reference(flat)
        if state is not None:
            torch.random.set_rng_state(state[0])
            if state[1] is not None:
                torch.cuda.set_rng_state(state[1], spec.device)
        return references

    def _compare(self, outputs, reference_outputs):
        if len(outputs) != len(reference_outputs):
            raise AssertionError(f"{len(outputs)} outputs, {len(reference_outputs)} references")
        for i, (out, ref) in enumerate(zip(outputs, reference_outputs)):
            out, ref = out.cpu(), ref.cpu()
            tolerance = {}
            if ref.is_floating_point() and ref.numel() and out.dtype == ref.dtype:
                # Sums taken in another order differ by rounding relative to the largest terms, so an
                # element that cancels to near zero may differ by more than rtol of itself: the absolute
                # tolerance is one unit of the dtype's precision at the output's largest magnitude.
                rtol, atol = {torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5),
                              torch.float32: (1.3e-6, 1e-5)}.get(ref.dtype, (1e-7, 1e-7))
                largest = ref.abs().nan_to_num(posinf=0.0, neginf=0.0).max().item()
                tolerance = dict(rtol=rtol, atol=max(atol, torch.finfo(ref.dtype).eps * largest))
            torch.testing.assert_close(out, ref, equal_nan=True, msg=lambda m: f"output {i}: {m}\n{self}",
                                       **tolerance)


def _dump(fd, spec):
    """NVFUSER_DUMP (or SEAM_PYTHON_DUMP) = comma-separated python_definition, fusion_ir,
    scheduled_fusion_ir, segmented_fusion, cuda_kernel: printed when a specialization is compiled, and
    kept for debug_output() when execute(capture_debug_output=True) compiled it."""
    wanted = set((os.environ.get("SEAM_PYTHON_DUMP") or os.environ.get("NVFUSER_DUMP") or "").split(","))
    if not wanted - {""}:
        return
    parts = []
    if "python_definition" in wanted:
        parts.append(fd._script())
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
    if fd._capturing is not None:
        fd._capturing.extend(parts)


def clone(source, destination):
    """Defines `destination` as a copy of `source` (by replaying its printed definition)."""
    namespace = {"FusionDefinition": FusionDefinition, "DataType": DataType}
    exec(repr(source), namespace)
    with destination:
        namespace[f"nvfuser_fusion_id{source.id() or 0}"](destination)


# --- helpers ------------------------------------------------------------------------------------

_NESTED = (list, tuple, torch.Size)


def _flatten(inputs, slots):
    """execute()'s inputs with the list given for each `define_vector(n)` input spread over its n
    entries; a list anywhere else is an error naming the input."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"execute() takes a list of inputs, got {type(inputs).__name__}")
    for x in inputs:
        if isinstance(x, _NESTED):
            break
    else:
        return list(inputs)
    flat = []
    for x in inputs:
        if isinstance(x, _NESTED):
            rec, label = slots[len(flat)] if len(flat) < len(slots) else (None, f"input {len(flat)}")
            if rec is None or rec.kind != "define_vector":
                what = "torch.Tensor" if rec is not None and rec.kind == "define_tensor" else "number"
                raise TypeError(f"{label} must be a {what}, got a {type(x).__name__} (only define_vector inputs "
                                "take a list)")
            flat.extend(x)
        else:
            flat.append(x)
    return flat


_STRIDED = torch.strided


def _resolve_views(flat, slots):
    """Tensors with PyTorch's negative bit (`z.conj().imag`) hold the negated values in memory: they are
    read as PyTorch's kernels read them, through a resolved copy. Returns the inputs and the positions
    resolved. Tensors of another layout than strided (sparse) are refused, naming the input."""
    flat, resolved = list(flat), set()
    for i, x in enumerate(flat):
        if isinstance(x, torch.Tensor) and x.layout is not _STRIDED:
            label = slots[i][1] if i < len(slots) else f"input {i}"
            raise ValueError(f"{label}: a {x.layout} tensor (sparse or another layout without strides); seam "
                             "reads strided (dense) tensors: pass x.to_dense()")
        if isinstance(x, torch.Tensor) and x.is_neg():
            flat[i] = x.resolve_neg()
            resolved.add(i)
    return flat, resolved


def _input_text(x):
    if isinstance(x, torch.Tensor) and x.layout != torch.strided:
        return f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')  # was {x.layout}"
    if isinstance(x, torch.Tensor):
        if x.is_contiguous() or x.numel() == 0:
            return (f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')")
        return (f"torch.testing.make_tensor(({x.untyped_storage().nbytes() // x.element_size()},), "
                f"dtype={x.dtype}, device='{x.device}').as_strided({tuple(x.shape)}, {tuple(x.stride())})"
                if hasattr(x, "untyped_storage") else
                f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')")
    return _format(x)


def _input_slot(fd, tensor):
    for i, (rec, _) in enumerate(fd._slots):
        if rec.kind == "define_tensor" and rec.outputs[0] is tensor:
            return i
    raise ValueError(f"{tensor.name} is not an input")


def _normalize(values):
    """Arguments as recorded: tuples and torch.Size become lists (of ints and handles)."""
    out = []
    for v in values:
        if isinstance(v, (tuple, torch.Size)):
            v = list(v)
        if isinstance(v, list):
            v = [list(e) if isinstance(e, (tuple, torch.Size)) else e for e in v]
        out.append(v)
    return out


# Parameters that take lists (shapes, dims, index lists, the tensors of cat); any other is an operand or
# an option, which a list cannot be.
_LIST_PARAMS = frozenset("broadcast_dims dims end_indices is_broadcast_dim legacy new_shape pad_widths shape "
                         "start_indices stride_order strides tensors".split())
_REDUCTIONS = frozenset("sum prod max min mean var var_mean welford".split())
# Seeds and offsets count modulo 2^64 (ops_random.py), so they may be unsigned 64-bit numbers.
_UNSIGNED_PARAMS = frozenset(("rng_seed", "rng_offset"))


def _check_arguments(op_name, arguments):
    """What is wrong with an op's arguments that is known when it is defined: a torch tensor or list where
    an operand goes, a Python int beyond 64 bits, an empty list of reduction axes."""
    for name, value in arguments.items():
        where = f"fd.ops.{op_name}: argument {name}"
        if name in _LIST_PARAMS or (op_name == "at" and name == "arg"):
            items = value if isinstance(value, (list, tuple, torch.Size)) else [value]
        elif isinstance(value, (list, tuple)):
            raise TypeError(f"{where} is a {type(value).__name__}; it takes a Tensor, a Scalar or a number")
        else:
            items = [value]
        for item in items:
            if isinstance(item, torch.Tensor):
                raise TypeError(f"{where} is a torch.Tensor; a tensor enters a definition as an input "
                                "(fd.define_tensor or fd.from_pytorch)")
            if isinstance(item, complex):
                raise NotImplementedError(f"{where} is the complex number {item!r}; seam has no complex dtypes")
            if isinstance(item, int) and not isinstance(item, bool):
                low, end = (-(1 << 63), 1 << 64) if name in _UNSIGNED_PARAMS else (-(1 << 63), 1 << 63)
                if not low <= item < end:
                    raise ValueError(f"{where}: the Python int {item} does not fit 64 bits")
        if op_name in _REDUCTIONS and name == "dims" and isinstance(value, (list, tuple)) and not value:
            raise ValueError(f"fd.ops.{op_name}: dims is empty; as in nvFuser, a reduction needs at least one "
                             "axis (leave dims out to reduce every axis)")


def _handles_in(values):
    for v in values:
        if isinstance(v, Handle):
            yield v
        elif isinstance(v, list):
            yield from _handles_in(v)


def _parse_define_tensor(args, kwargs):
    """The three define_tensor overloads (by argument types) as (shape, contiguity, dtype, is_cpu,
    stride_order) with contiguity in allocation order."""
    kwargs = dict(kwargs)
    for old, new in (("symbolic_sizes", "shape"), ("contiguous", "contiguity")):
        if old in kwargs:
            kwargs[new] = kwargs.pop(old)
    strided = "sizes" in kwargs or "strides" in kwargs
    if not strided and len(args) >= 2 and isinstance(args[1], (list, tuple)) and any(
            isinstance(e, int) and not isinstance(e, bool) and e not in (0, 1) for e in args[1]):
        strided = True
    if strided:
        names = ["sizes", "strides", "dtype", "static_sizes", "is_cpu"]
        params = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in params:
                raise TypeError(f"define_tensor(sizes, strides, dtype, static_sizes, is_cpu): unexpected or "
                                f"repeated argument '{k}'")
            params[k] = v
        sizes, strides = list(params.get("sizes", [])), list(params.get("strides", []))
        if len(sizes) != len(strides):
            raise ValueError(f"define_tensor: {len(sizes)} sizes and {len(strides)} strides")
        contiguity, stride_order = compute_tensor_descriptor(sizes, strides)
        static = bool(params.get("static_sizes", False))
        shape = [s if static or s == 1 else -1 for s in sizes]
        # The stride_order is kept (printed) even when row-major, as nvFuser prints from_pytorch inputs.
        return (shape, contiguity, params.get("dtype", DataType.Float), bool(params.get("is_cpu", False)),
                stride_order)
    names = ["shape", "contiguity", "dtype", "is_cpu", "stride_order"]
    params = dict(zip(names, args))
    if len(args) > len(names):
        raise TypeError(f"define_tensor takes at most {len(names)} positional arguments")
    for k, v in kwargs.items():
        if k not in names or k in params:
            raise TypeError(f"define_tensor(shape, contiguity, dtype, is_cpu, stride_order): unexpected or "
                            f"repeated argument '{k}'")
        params[k] = v
    if "shape" not in params:
        raise TypeError("define_tensor needs a shape (or sizes= and strides=)")
    shape = params["shape"]
    if isinstance(shape, int):  # pre-2023 scripts: define_tensor(ndims, dtype)
        raise TypeError("define_tensor(ndims, ...) is nvFuser's retired form; give shape=[-1, ...]")
    shape = [int(s) for s in shape]
    for d, s in enumerate(shape):
        if s < -1:
            raise ValueError(f"define_tensor: shape entry {s} in dim {d} (use -1 for a symbolic extent)")
    rank = len(shape)
    contiguity = params.get("contiguity", None)
    stride_order = [int(s) for s in (params.get("stride_order") or [])]
    if stride_order and sorted(s % rank for s in stride_order) != list(range(rank)):
        raise ValueError(f"define_tensor: stride_order {stride_order} is not a permutation of {rank} dims")
    order = allocation_order(stride_order, rank)
    if contiguity is None or isinstance(contiguity, (bool, int)):
        flag = bool(contiguity) if contiguity is not None else False
        contiguity = [None if shape[d] == 1 else flag for d in order]
    else:
        contiguity = [None if c is None else bool(c) for c in contiguity]
        if len(contiguity) != rank:
            raise ValueError(f"define_tensor: {len(contiguity)} contiguity entries for {rank} dims")
    # contiguity None on an extent other than 1 is an expanded broadcast (stride 0): with a static extent,
    # the input must have that extent (nvFuser's expanded dims of a known size).
    dtype = params.get("dtype", DataType.Float)
    if isinstance(dtype, torch.dtype):
        dtype = dtypes.torch_to_datatype(dtype)
    return shape, contiguity, dtype, bool(params.get("is_cpu", False)), stride_order


def _lower_record(ctx, rec, flat, slots):
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
        if is_cpu and (t.device.type != "cpu" or t.dim() != 0):
            raise ValueError(f"{label}: declared is_cpu=True, which is for 0-dim CPU tensors; got a "
                             f"{t.dim()}-dim tensor on {t.device}")
        if not is_cpu and t.device != ctx.device and not (t.device.type == ctx.device.type == "cpu"):
            raise ValueError(f"{label}: on {t.device}, the fusion runs on {ctx.device}")
        check_layout(label, shape, contiguity, stride_order, list(t.shape), list(t.stride()))
        strides = list(t.stride())
        if t.is_contiguous() and strides == row_major_strides(t.shape):
            strides = []  # the IR's default; keeps fusion_ir() short
        tid = ctx.b.input(rec.spec, list(t.shape), strides, rec.outputs[0].name)
        ctx.fusion_inputs.append((rec.slot, rec.spec, False))
        ctx.input_slots[tid] = rec.slot
        ctx.env[rec.outputs[0].index] = TV(tid, rec.spec, t.shape)
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
