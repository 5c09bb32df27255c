"""One region (an aten subgraph seam claimed) to a FusionDefinition, for concrete inputs: tensors become
definition inputs with their layouts, integer inputs (symbolic sizes Dynamo computed) become constants, so
each input signature gets its own definition; identical regions (every layer's RMSNorm) give identical
definitions, which seam's FusionCache compiles once."""

import operator

import torch
from torch.fx.node import map_arg

from ..definition import FusionDefinition
from ..handles import Tensor
from .context import ConversionContext, ConversionError
from .node_meta import TensorInfo
from .registry import REGISTRY


class NodeConversionError(ConversionError):
    """A converter failed on one node: the region can run with that node in PyTorch."""

    def __init__(self, node, error):
        super().__init__(f"{node.format_node()}: {type(error).__name__}: {error}")
        self.node = node


class Translation:
    """The definition of a region for one input signature: which region inputs it takes (the tensors, in
    order), and per region output whether it must not alias an input (an op that copies in aten)."""

    __slots__ = ("fd", "tensor_positions", "copies")

    def __init__(self, fd, tensor_positions, copies):
        self.fd, self.tensor_positions, self.copies = fd, tensor_positions, copies


def region_outputs(graph):
    """The output node's values as a list, and whether the region returns a single value (not a tuple)."""
    out = next(n for n in graph.nodes if n.op == "output").args[0]
    if isinstance(out, (tuple, list)):
        return list(out), False
    return [out], True


def translate(graph, inputs):
    env = {}
    positions = []
    with FusionDefinition() as fd:
        ctx = ConversionContext(fd)
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(inputs):
            raise ConversionError(f"the region takes {len(placeholders)} inputs, got {len(inputs)}")
        for node, value in zip(placeholders, inputs):
            if isinstance(value, torch.Tensor):
                handle = fd.from_pytorch(value)
                ctx.set_info(handle, TensorInfo(value.dtype, value.shape, value.device.type))
                env[node] = handle
            elif isinstance(value, (bool, int, float)) or value is None:
                env[node] = value
            else:
                raise ConversionError(f"region input {node.name} is a {type(value).__name__}")
        positions = [i for i, v in enumerate(inputs) if isinstance(v, torch.Tensor)]
        for node in graph.nodes:
            if node.op != "call_function":
                continue
            args = map_arg(node.args, lambda n: env[n])
            kwargs = map_arg(node.kwargs, lambda n: env[n])
            if node.target is operator.getitem:
                env[node] = args[0][args[1]]
                continue
            conv = REGISTRY.get(node.target)
            ctx.node = node
            try:
                if conv is None:
                    raise ConversionError("no converter")
                env[node] = ctx.finish(node, conv.convert(ctx, *args, **kwargs))
            except Exception as e:
                raise NodeConversionError(node, e) from e
        outputs, _ = region_outputs(graph)
        copies = []
        for out in outputs:
            handle = env[out]
            if not isinstance(handle, Tensor):
                raise ConversionError(f"region output {out} is not a tensor")
            fd.add_output(handle)
            copies.append(not _is_view(out))
    return Translation(fd, positions, copies)


def _is_view(node):
    """Whether aten's result for `node` may alias an input (a view op, or a getitem of a view op)."""
    if node.op == "call_function" and node.target is operator.getitem:
        node = node.args[0]
    conv = REGISTRY.get(node.target) if node.op == "call_function" else None
    return conv is not None and conv.view
