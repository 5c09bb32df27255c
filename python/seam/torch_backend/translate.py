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
    """The definition of a region for one input signature: which region inputs it takes (`tensor_positions`:
    region input indices, in the definition's order), and per definition output the region output it is
    (`output_positions`) and whether it must not alias an input (`copies`: an op that copies in aten)."""

    __slots__ = ("fd", "tensor_positions", "output_positions", "copies")

    def __init__(self, fd, tensor_positions, output_positions, copies):
        self.fd, self.tensor_positions = fd, tensor_positions
        self.output_positions, self.copies = output_positions, copies


# Where each node stood in the graph the partition was made from (partition.py records it): the fuser's
# order of a region's nodes, inputs and outputs varies between identical regions, this order does not.
ORDER = "seam_order"


def region_outputs(graph):
    """The output node's values as a list, and whether the region returns a single value (not a tuple)."""
    out = next(n for n in graph.nodes if n.op == "output").args[0]
    if isinstance(out, (tuple, list)):
        return list(out), False
    return [out], True


def _canonical(nodes):
    """Nodes in the order of the graph they were partitioned from, where that order is known and
    topological (else as given)."""
    nodes = list(nodes)
    if not all(ORDER in n.meta for n in nodes):
        return nodes
    ordered = sorted(nodes, key=lambda n: n.meta[ORDER])
    members, seen = set(nodes), set()
    for n in ordered:
        if any(a in members and a not in seen for a in n.all_input_nodes):
            return nodes
        seen.add(n)
    return ordered


def translate(graph, inputs):
    """The region's definition for these inputs. Nodes, inputs (at first use) and outputs are recorded in
    the original graph's order, so that every layer's copy of a region gives the same definition text and
    shares one compiled specialization."""
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(inputs):
        raise ConversionError(f"the region takes {len(placeholders)} inputs, got {len(inputs)}")
    index_of = {n: i for i, n in enumerate(placeholders)}
    env, positions = {}, []
    with FusionDefinition() as fd:
        ctx = ConversionContext(fd)

        def value(node):
            if node not in env:  # a region input, defined where it is first used
                x = inputs[index_of[node]]
                if isinstance(x, torch.Tensor):
                    handle = fd.from_pytorch(x)
                    ctx.set_info(handle, TensorInfo(x.dtype, x.shape, x.device.type))
                    positions.append(index_of[node])
                    env[node] = handle
                elif isinstance(x, (bool, int, float)) or x is None:
                    env[node] = x  # a symbolic size: a constant of this specialization
                else:
                    raise ConversionError(f"region input {node.name} is a {type(x).__name__}")
            return env[node]

        for node in _canonical(n for n in graph.nodes if n.op == "call_function"):
            args = map_arg(node.args, value)
            kwargs = map_arg(node.kwargs, value)
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
        order = sorted(range(len(outputs)), key=lambda i: (outputs[i].meta.get(ORDER, 0), i))
        copies = []
        for i in order:
            handle = value(outputs[i])
            if not isinstance(handle, Tensor):
                raise ConversionError(f"region output {outputs[i]} is not a tensor")
            fd.add_output(handle)
            copies.append(not _is_view(outputs[i]))
    return Translation(fd, positions, order, copies)


def _is_view(node):
    """Whether aten's result for `node` may alias an input (a view op, or a getitem of a view op)."""
    if node.op == "call_function" and node.target is operator.getitem:
        node = node.args[0]
    conv = REGISTRY.get(node.target) if node.op == "call_function" else None
    return conv is not None and conv.view
