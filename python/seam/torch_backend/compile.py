"""From an aten graph (AOT autograd's forward or backward, make_fx's trace) to a callable that runs seam's
regions and PyTorch's nodes; and aot_compile, the same through functorch's AOT autograd for a torch
without Dynamo."""

import collections
import functools
import inspect
import itertools
import logging

import torch

from .decompositions import decomposition_table
from .partition import partition_graph
from .precompile import compile_regions_ahead, record_missing_shapes
from .settings import CompilationSettings

log = logging.getLogger("seam.torch_backend")

# The last partitions made in this process (benchmarks and debugging read them).
REPORTS = collections.deque(maxlen=64)


def compile_aten_graph(gm, example_inputs=None, settings=None):
    """The partitioned GraphModule (call it with the graph's inputs). A failure to partition leaves the
    whole graph to PyTorch (settings.fallback) rather than breaking the user's program."""
    settings = settings or CompilationSettings()
    if settings.compile_ahead:
        try:
            record_missing_shapes(gm, example_inputs)
        except Exception as e:  # noqa: BLE001 (only the prediction of signatures needs them)
            log.debug("seam: recording the graph's shapes failed: %s: %s", type(e).__name__, e)
    try:
        fused, report = partition_graph(gm, settings)
    except Exception as e:
        if not settings.fallback:
            raise
        log.debug("seam: partitioning failed, the graph runs in PyTorch: %s: %s", type(e).__name__, e)
        return gm
    log.debug("seam: %r; refused: %s", report, report.refused)
    fused.seam_partition = report
    REPORTS.append(report)
    _label_regions(fused)
    if settings.compile_ahead:
        try:
            compile_regions_ahead(fused, example_inputs, settings)
        except Exception as e:  # noqa: BLE001 (an optimization: the regions compile as they run)
            log.warning("seam: compiling the regions ahead failed, they compile as they run: %s: %s",
                        type(e).__name__, e)
    return fused


_graphs_compiled = itertools.count(1)


def _label_regions(fused):
    """Names each region by its graph (in compile order: a model's forward is compiled before its backward),
    so that profiles say where a kernel came from ("graph2/fused_3")."""
    from .runtime import SeamRegion

    label = f"graph{next(_graphs_compiled)}"
    fused.seam_graph_label = label
    for module in fused.modules():
        if isinstance(module, SeamRegion):
            module.graph_label = label


def _boxed(fn):
    """AOT autograd calls compiled graphs with one list of arguments when the callable says so
    (`_boxed_call`). The callee takes the list's references and empties it, as Inductor's graphs do: torch
    may then free an input the graph no longer needs, and torch's CUDA graph trees require it (their
    warm-up asserts the list is empty after the call)."""
    def run(args):
        taken = list(args)
        if isinstance(args, list):
            args.clear()
        return fn(*taken)

    run._boxed_call = True
    return run


def graph_compiler(settings, compiled=None):
    """A compiler for AOT autograd (fw_compiler / bw_compiler): partitions each graph; `compiled`, when a
    list, collects the partitioned GraphModules (for tests and reports)."""
    def compile_graph(gm, example_inputs):
        fused = compile_aten_graph(gm, example_inputs, settings)
        if compiled is not None:
            compiled.append(fused)
        return _boxed(fused.forward)

    return compile_graph


def aot_compile(fn, settings=None, compiled=None, partition_fn=None):
    """fn (a function of tensors, or an nn.Module) compiled through AOT autograd with seam's regions in
    the forward and backward graphs. For torch without Dynamo (1.13) and for tests; torch.compile users
    write torch.compile(model, backend="seam"). `partition_fn`: AOT autograd's forward/backward split,
    the backend's min-cut (min_cut_partition) by default."""
    settings = settings or CompilationSettings()
    try:
        from functorch.compile import aot_function, aot_module
    except ImportError:
        from torch._functorch.aot_autograd import aot_function, aot_module
    compiler = graph_compiler(settings, compiled)
    kwargs = dict(fw_compiler=compiler, bw_compiler=compiler,
                  decompositions=decomposition_table(settings.recompute_saved_outputs))
    partition = partition_fn or min_cut_partition()
    if partition is not None:
        kwargs["partition_fn"] = partition
    if isinstance(fn, torch.nn.Module):
        return aot_module(fn, **kwargs)
    return aot_function(fn, **kwargs)


def min_cut_partition():
    """AOT autograd's min-cut partition (it recomputes cheap pointwise work in the backward instead of
    saving it, and saves a loss's log-sum-exp rather than its log-softmax), or None where it is missing
    (it needs networkx). With the recomputation allowlist torch 2 uses by default (compiler="inductor":
    casts, views, iota and full among the recomputable ops); torch 1.13's default list lacks them, so it
    saves f32 upcasts and the log-softmax, bytes seam's kernels would then write and read back."""
    try:
        import networkx  # noqa: F401
    except ImportError:
        return None
    try:
        from torch._functorch.partitioners import min_cut_rematerialization_partition
    except ImportError:
        try:
            from functorch.compile import min_cut_rematerialization_partition
        except ImportError:
            return None
    compiler = inspect.signature(min_cut_rematerialization_partition).parameters.get("compiler")
    if compiler is not None and compiler.default != "inductor":
        return functools.partial(min_cut_rematerialization_partition, compiler="inductor")
    return min_cut_rematerialization_partition
