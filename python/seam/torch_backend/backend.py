"""torch.compile(model, backend="seam"): Dynamo's FX graph through AOT autograd (forward and backward
aten graphs, with seam's decomposition table and the min-cut partition that recomputes cheap pointwise
ops in the backward rather than saving them), each graph partitioned into seam regions."""

import logging

from .compile import graph_compiler
from .decompositions import decomposition_table
from .settings import CompilationSettings

log = logging.getLogger("seam.torch_backend")


def seam_backend(gm, example_inputs, options=None, mode=None, **_ignored):
    """The Dynamo backend. `options` (torch.compile(..., options={...})) are CompilationSettings fields;
    `mode` is Inductor's ("reduce-overhead" captures CUDA graphs there) and is not acted on here."""
    from torch._dynamo.backends.common import aot_autograd

    if mode not in (None, "default"):
        log.debug("seam: torch.compile mode=%r is Inductor's; the seam backend compiles as for the default", mode)
    settings = CompilationSettings.from_options(options)
    compiler = graph_compiler(settings)
    kwargs = dict(fw_compiler=compiler, bw_compiler=compiler, decompositions=decomposition_table())
    try:  # the min-cut partition needs networkx
        import networkx  # noqa: F401
        from torch._functorch.partitioners import min_cut_rematerialization_partition
        kwargs["partition_fn"] = min_cut_rematerialization_partition
    except ImportError:
        pass
    return aot_autograd(**kwargs)(gm, example_inputs)
