"""FusionDefinition: nvFuser's Python API for defining a fusion, recorded call by call. A definition has
symbolic extents; seam's IR has static ones, so execute() specializes the records for the concrete
inputs (lowering.py), compiles the result once per input signature and runs it (runner.py)."""

import sys

import torch

from . import dtypes
from . import profile as _profiler
from .cache import FusionCache, input_key
from .dtypes import DataType
from .handles import Scalar, Tensor, Vector
from .inputs import flatten, resolve_views
from .lowering import convert
from .recording import Operators, Recording  # noqa: F401 (Operators: seam.definition's name for fd.ops)
from .records import Record, parse_define_tensor
from .replay import specialize
from .reproducer import dump, input_text, reproducers_quiet
from .runner import choose_device, input_devices


class _ScheduleOperators:
    """fd.sched: nvFuser's user-schedule ops. seam schedules every kernel itself; each raises."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def unsupported(*args, **kwargs):
            raise NotImplementedError(f"fd.sched.{name}: seam schedules every kernel itself; nvFuser's user "
                                      "schedules are not supported (a schedule() method is not called)")

        return unsupported


class FusionDefinition(Recording):
    """nvFuser's FusionDefinition on seam. Use `with FusionDefinition() as fd:` or subclass it with a
    `definition(self)` method; then `fd.execute(inputs)`. The records, handles, `fd.ops` and outputs are
    the core's (recording.py); this class adds nvFuser's ways of defining inputs, execute() with its
    per-signature cache, reproducers, profiling and introspection."""

    _what = "FusionDefinition"

    def __init__(self, id=None, max_length=9999, use_multidevice_executor=False, backend_type=None):
        super().__init__()
        self._selected_device = None
        self.sched = _ScheduleOperators()
        if id is not None:  # the definition the cache holds under this id
            body = FusionCache.get().body_of(id)
            namespace = {"FusionDefinition": FusionDefinition, "DataType": DataType}
            exec(f"def nvfuser_fusion(fd):\n{body or '    pass'}\n", namespace)
            with self:
                namespace["nvfuser_fusion"](self)

    def _reset(self):
        super()._reset()
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
    def _check_open(self):
        if self._entry is not None and not self._defining:
            raise RuntimeError("Attempting to add to a completed definition! This FusionDefinition is complete; "
                               "define a new one to add operations")

    def define_tensor(self, *args, **kwargs):
        shape, contiguity, dtype, is_cpu, stride_order = parse_define_tensor(args, kwargs)
        if is_cpu and shape:
            raise ValueError(f"define_tensor: CPU non-scalar tensor is not supported! is_cpu=True declares a "
                             f"0-dim CPU tensor, got shape {shape} (CPU tensors of any rank run with is_cpu=False "
                             "on seam's host backend)")
        seam_dtype = dtypes.to_seam(dtype, "define_tensor dtype")
        t = self._new(Tensor, len(shape))
        rec = Record("define_tensor", (shape, contiguity, dtype, is_cpu, stride_order), [t],
                     slot=len(self._slots))
        rec.spec = seam_dtype
        self._add_input(rec, f"input {len(self._slots)} ({t.name})")
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
        if value is None:
            self._add_input(rec, f"input {len(self._slots)} ({s.name}, a {dtype!r} scalar)")
        else:
            self._add_record(rec)
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

    # --- the reproducer ---------------------------------------------------------------------------------
    def _function_name(self):
        return f"nvfuser_fusion_id{self.id() or 0}"

    def _function(self):
        """The definition as nvFuser prints it: a function taking the FusionDefinition (its name on the
        second line, where nvFuser's tests look for it)."""
        return (f"# seam: nvFuser's FusionDefinition API\n"
                f"def {self._function_name()}(fd : FusionDefinition) -> None :\n"
                + (self._body() or "    pass") + "\n")

    def _script(self, inputs=None):
        """A runnable reproducer: imports, the function, its use, and the inputs when given."""
        lines = ["# A seam reproducer (nvFuser's API; python/ of seam on PYTHONPATH)", "import torch",
                 "from nvfuser import FusionDefinition, DataType", "", self._function(),
                 "with FusionDefinition() as fd:", f"    {self._function_name()}(fd)"]
        if inputs is not None:
            try:
                flat = flatten(inputs, self._slots)
            except TypeError:  # the reproducer of a call with a wrong input shows it as given
                flat = list(inputs)
            lines += ["", "inputs = ["] + [f"    {input_text(x)}," for x in flat] + [
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
        profiling = profile or _profiler.active()
        if "matmul_expr_eval" in _disable_options:
            self._refuse_matmul_without_library()
        if capture_debug_output:
            return self._execute_capturing(inputs, device=device, print_repro=print_repro, profile=profile,
                                           save_repro_inputs=save_repro_inputs)
        if print_repro:
            print(self._script(inputs))
        if save_repro_inputs:
            self._last_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in flatten(inputs, self._slots)]
        try:
            flat = flatten(inputs, self._slots)
            resolved = None
            for x in flat:  # PyTorch's negative bit: the memory holds the negated values
                if isinstance(x, torch.Tensor) and x.is_neg():
                    flat, resolved = resolve_views(flat, self._slots)
                    break
            requested = device if device is not None else self._selected_device
            # The fast key implies everything the full checks look at, so a hit skips them; a miss (a new
            # signature or a wrong input) takes the full path, with its checks and their messages.
            try:
                key = entry.fast_key(flat, requested)
            except RuntimeError:  # a tensor without strides (sparse): the full path says what is wrong
                key = None
            spec = entry.fast.get(key) if key is not None else None
            compiled = False  # whether this execute reports the specialization's compile time
            if spec is None:
                if resolved is None:
                    resolve_views(flat, self._slots)  # refuses tensors without strided memory (sparse)
                spec = self._specialization(flat, device)
                compiled, spec.compile_unreported = spec.compile_unreported, False
                key = entry.fast_key(flat, requested)
                if key is not None:
                    entry.fast[key] = spec
            self._last = spec
            if resolved:
                self._refuse_written_negative_views(spec, resolved)
            try:
                if profiling:
                    return self._run_profiled(spec, flat, explicit=profile, compiled=compiled)
                return spec.run(flat)
            except RuntimeError:
                # torch 1.13 gives a sparse COO tensor dense-looking strides, so it can match a cached key:
                # name it rather than torch's complaint about its data pointer
                resolve_views(flat, self._slots)
                raise
        except Exception:
            if not reproducers_quiet():
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

    _profile = None  # the FusionProfile of this definition's last profiled execute

    def _run_profiled(self, spec, flat, explicit, compiled):
        """spec.run(flat), profiled (profile.run_profiled); the FusionProfile goes to fd.profile()."""
        results, profile = _profiler.run_profiled(spec, flat, self._entry.id, explicit, compiled)
        if profile is not None:
            self._profile = profile
        return results

    def profile(self):
        """The FusionProfile of the last execute(..., profile=True) of this definition."""
        if self._profile is None:
            if self._last is None:
                raise ValueError("fd.profile(): this FusionDefinition has not been executed; call "
                                 "fd.execute(inputs, profile=True) first")
            raise ValueError("fd.profile(): this FusionDefinition was executed without profiling; call "
                             "fd.execute(inputs, profile=True) first")
        return self._profile

    def _specialization(self, flat, device=None):
        if len(flat) != len(self._slots):
            expected = ", ".join(d for _, d in self._slots) or "none"
            raise ValueError(f"the definition takes {len(self._slots)} inputs ({expected}), got {len(flat)}")
        entry = self._entry
        dev = choose_device(input_devices(flat), self._slots,
                            device if device is not None else self._selected_device)
        key = input_key(flat, entry.meta, dev) if entry.meta is not None else None
        spec = entry.specializations.get(key) if key is not None else None
        if spec is None:
            with entry.lock:
                spec = entry.specializations.get(key) if key is not None else None
                if spec is None:
                    spec = specialize(self, flat, dev, f"nvfuser_fusion_id{self.id()}")
                    dump(spec, self._script, self._capturing)
                    entry.meta = spec.meta
                    key = input_key(flat, entry.meta, dev)
                    entry.specializations[key] = spec
        self._last = spec
        return spec

    def compile_for(self, inputs, device=None):
        """Specializes and compiles the definition for inputs of this signature without running it (only
        each tensor's dtype, shape, strides and device are read, so FakeTensors do), so that execute() on
        such inputs starts at once. Compilations of different definitions may run on several threads."""
        self._ensure_defined()
        self._specialization(flatten(inputs, self._slots), device)

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
        return self._specialization(flatten(inputs, self._slots)).fusion.text()

    def last_scheduled_fusion_ir(self, tensor_transforms=False, override_user_schedule=False):
        return self._last_or_error("last_scheduled_fusion_ir").executable().optimized_fusion()

    def scheduled_fusion_ir_for(self, inputs, tensor_transforms=False, override_user_schedule=False):
        self._ensure_defined()
        return self._specialization(flatten(inputs, self._slots)).executable().optimized_fusion()

    def last_cuda_code(self, intrinsic_code=False, override_user_schedule=False):
        return self._last_or_error("last_cuda_code").executable().cuda_source()

    def cuda_code_for(self, inputs, intrinsic_code=False, override_user_schedule=False):
        self._ensure_defined()
        return self._specialization(flatten(inputs, self._slots)).executable().cuda_source()

    def last_segmentation(self):
        """seam's segmentation of the last execute(): kernels, values, boundary bytes, proven optimal?"""
        return self._last_or_error("last_segmentation").executable().segmentation()

    def last_compile_info(self):
        """How the last execute()'s specialization was compiled: `module` is "compiled" (NVRTC or the host
        compiler ran), "cache" (the kernel cache's binary), "loaded" (the module of another size of the same
        size class, nothing compiled: docs/CODEGEN.md, "Size classes") or "none"; `compile_ms` the whole
        specialization, `stages` seam's compile per stage (ms), `reused` the stages whose work an earlier size
        of the same structure and size class did (their time is the lookup and the check), `stages_run` the
        others, `kernels` launches per run, `specializations` how many input signatures this definition has
        compiled."""
        spec = self._last_or_error("last_compile_info")
        if spec.executable_or_none() is None:
            return {"module": "none", "compile_ms": spec.compile_time_ms, "stages": {}, "stages_run": [],
                    "reused": [], "kernels": 0, "specializations": len(self._entry.specializations)}
        exe = spec.executable()
        stages = dict(exe.compile_times())
        reused = list(exe.reused_stages())
        return {"module": exe.module_origin(), "compile_ms": spec.compile_time_ms, "stages": stages,
                "stages_run": [s for s in stages if s not in reused], "reused": reused,
                "kernels": exe.num_kernels(), "specializations": len(self._entry.specializations)}

    def segmentation_for(self, inputs):
        self._ensure_defined()
        return self._specialization(flatten(inputs, self._slots)).executable().segmentation()

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
        flat = flatten(inputs, self._slots)
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


def clone(source, destination):
    """Defines `destination` as a copy of `source` (by replaying its printed definition)."""
    namespace = {"FusionDefinition": FusionDefinition, "DataType": DataType}
    exec(repr(source), namespace)
    with destination:
        namespace[source._function_name()](destination)
