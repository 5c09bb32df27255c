"""Shared by the torch.compile backend's tests: trace a function to an aten graph (make_fx), run it
through seam's partition, and compare with eager."""

import torch
from torch.fx.experimental.proxy_tensor import make_fx

from seam.torch_backend import CompilationSettings, compile_aten_graph

STRICT = CompilationSettings(fallback=False, min_compute_ops=0)


def seam_run(fn, *inputs, settings=STRICT):
    """fn's aten graph on seam: (outputs as a list, the partitioned graph)."""
    gm = make_fx(fn)(*inputs)
    compiled = compile_aten_graph(gm, list(inputs), settings)
    out = compiled(*inputs)
    return (list(out) if isinstance(out, (tuple, list)) else [out]), compiled


def tolerance(dtype):
    return {torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1.6e-2), torch.float32: (2e-5, 2e-5),
            torch.float64: (1e-10, 1e-10)}.get(dtype, (0, 0))


def assert_matches(actual, expected):
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    assert actual.shape == expected.shape, f"shape {tuple(actual.shape)}, expected {tuple(expected.shape)}"
    rtol, atol = tolerance(actual.dtype)
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


def op_graph(op, args, kwargs=None, then=None):
    """An aten graph of one call of `op` (then `then` on its result), built by hand for overloads a tracer
    decomposes (torch 1.13's make_fx turns reshape, silu_backward and where.Scalar* into other ops, while
    Dynamo's graphs on torch 2 keep them). Tensor arguments become inputs; values are recorded from eager.
    Returns (GraphModule, inputs, the op node's name, eager's result)."""
    g = torch.fx.Graph()
    inputs = []

    def arg(a):
        if not isinstance(a, torch.Tensor):
            return a
        p = g.placeholder(f"input_{len(inputs)}")
        p.meta["val"] = a
        inputs.append(a)
        return p

    node = g.call_function(op, tuple(arg(a) for a in args), dict(kwargs or {}))
    value = node.meta["val"] = op(*args, **(kwargs or {}))
    name = node.name
    if then is not None:
        node = g.call_function(then, (node,))
        value = node.meta["val"] = then(value)
    g.output(node)
    return torch.fx.GraphModule(torch.nn.Module(), g), inputs, name, value
