"""torch.compile(model, backend="seam"): Dynamo's FX graph through AOT autograd (forward and backward
aten graphs, with seam's decomposition table and the min-cut partition that recomputes cheap pointwise
ops in the backward rather than saving them), each graph partitioned into seam regions."""

import logging

from .compile import graph_compiler, min_cut_partition
from .cuda_graphs import cuda_graph_compilers
from .decompositions import decomposition_table
from .rewrites import apply_graph_rewrites
from .settings import CompilationSettings

log = logging.getLogger("seam.torch_backend")


def seam_backend(gm, example_inputs, options=None, mode=None, **_ignored):
    """The Dynamo backend. `options` (torch.compile(..., options={...})) are CompilationSettings fields;
    mode="reduce-overhead" replays the compiled graphs as CUDA graphs (cuda_graphs.py), as Inductor's does."""
    from torch._dynamo.backends.common import aot_autograd

    settings = CompilationSettings.from_options(options)
    apply_graph_rewrites(gm, settings)
    compiler = graph_compiler(settings)
    kwargs = dict(fw_compiler=compiler, bw_compiler=compiler,
                  decompositions=decomposition_table(settings.recompute_saved_outputs))
    if mode == "reduce-overhead":
        compilers = cuda_graph_compilers(compiler, example_inputs)
        if compilers is not None:
            kwargs.update(zip(("fw_compiler", "bw_compiler", "inference_compiler"), compilers))
    elif mode not in (None, "default"):
        log.debug("seam: torch.compile mode=%r compiles as the default mode", mode)
    partition = min_cut_partition()
    if partition is not None:
        kwargs["partition_fn"] = partition
    return aot_autograd(**kwargs)(gm, example_inputs)
