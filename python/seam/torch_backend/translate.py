"""One region (an aten subgraph seam claimed) to a fusion, for concrete inputs: tensors become inputs of a
FusionBuilder with their extents, strides, dtype and device, integer inputs (symbolic sizes Dynamo
computed) become constants, so each input signature gets its own fusion; identical regions (every layer's
RMSNorm) give identical fusion texts, which compile once (fusion_builder.py)."""

import hashlib
import heapq
import operator

import torch
from torch.fx.node import map_arg

from ..fusion_builder import FusionBuilder
from ..handles import Tensor
from .context import ConversionContext, ConversionError
from .node_meta import TensorInfo, recorded_strides, stride_order, tensor_info
from .registry import REGISTRY


class NodeConversionError(ConversionError):
    """A converter failed on one node: the region can run with that node in PyTorch."""

    def __init__(self, node, error):
        super().__init__(f"{node.format_node()}: {type(error).__name__}: {error}")
        self.node = node


class Translation:
    """The fusion of a region for one input signature: which region inputs it takes (`tensor_positions`:
    region input indices, in the fusion's order), and per fusion output the region output it is
    (`output_positions`) and whether it must not alias an input (`copies`: an op that copies in aten);
    `spec`, once compiled, the specialization every call of the signature runs."""

    __slots__ = ("fusion", "tensor_positions", "output_positions", "copies", "spec")

    def __init__(self, fusion, tensor_positions, output_positions, copies):
        self.fusion, self.tensor_positions = fusion, tensor_positions
        self.output_positions, self.copies = output_positions, copies
        self.spec = None

    def compile(self, device):
        """The compiled specialization (`device`: where a fusion without tensor inputs runs)."""
        if self.spec is None:
            self.spec = self.fusion.compile(None if self.tensor_positions else device)
        return self.spec


# Where each node stood in the graph the partition was made from (partition.py records it): the tie-break
# of the canonical order below, where two nodes compute the same thing.
ORDER = "seam_order"


def region_outputs(graph):
    """The output node's values as a list, and whether the region returns a single value (not a tuple)."""
    out = next(n for n in graph.nodes if n.op == "output").args[0]
    if isinstance(out, (tuple, list)):
        return list(out), False
    return [out], True


def _structure(node, members, memo, describe):
    """A digest of what `node` computes: its op, its constants, its region inputs (`describe`: their
    dtype, shape and strides for this signature), and the digests of the nodes it reads; no node name
    and no position in the graph (tracers and the fuser name and order the copies of one layer
    differently). Stable across processes."""
    digest = memo.get(node)
    if digest is not None:
        return digest

    def part(a):
        if isinstance(a, torch.fx.Node):
            return _structure(a, members, memo, describe) if a in members else describe(a)
        if isinstance(a, (list, tuple)):
            return "(" + ",".join(part(e) for e in a) + ")"
        if isinstance(a, dict):
            return "{" + ",".join(f"{k}={part(v)}" for k, v in sorted(a.items())) + "}"
        return repr(a)

    text = f"{node.target}|{part(node.args)}|{part(node.kwargs)}"
    digest = memo[node] = hashlib.sha1(text.encode()).hexdigest()
    return digest


def _argument_position(user, node):
    found = []
    map_arg((user.args, user.kwargs), lambda a: found.append(a is node))
    return found.index(True) if True in found else -1


def _canonical(nodes, describe):
    """A topological order of a region's nodes that identical copies share: of the nodes ready, the one
    whose computation (_structure) sorts first, ties broken by the order of the original graph. Inputs
    are defined at first use and outputs recorded in this order too, so every copy of a layer gives the
    same fusion text whatever names and node order the tracer and the fuser gave it."""
    nodes = list(nodes)
    members = set(nodes)
    memo, position = {}, {n: i for i, n in enumerate(nodes)}
    for n in nodes:  # the graph's order is topological: each digest finds its inputs' already made
        _structure(n, members, memo, describe)
    # What reads each node, the same way from the outputs back: two nodes that compute alike from
    # different inputs (x * w1, x * w2) are told apart by what their results feed.
    below = {}
    for n in reversed(nodes):
        users = sorted(f"{u.target}@{_argument_position(u, n)}:{below[u]}" for u in n.users if u in members)
        below[n] = hashlib.sha1("|".join(users).encode()).hexdigest()
    waiting = {n: sum(1 for a in n.all_input_nodes if a in members) for n in nodes}
    key = {n: (memo[n], below[n], n.meta.get(ORDER, position[n])) for n in nodes}
    ready = [(key[n], position[n], n) for n in nodes if waiting[n] == 0]
    heapq.heapify(ready)
    ordered = []
    while ready:
        _, _, node = heapq.heappop(ready)
        ordered.append(node)
        for user in node.users:
            if user in members:
                waiting[user] -= 1
                if waiting[user] == 0:
                    heapq.heappush(ready, (key[user], position[user], user))
    return ordered if len(ordered) == len(nodes) else nodes


def translate(graph, inputs):
    """The region's fusion for these inputs (tensors or stand-ins: only dtypes, shapes, strides and devices
    are read). Nodes, inputs (at first use) and outputs are recorded in a canonical order, so that every
    layer's copy of a region gives the same fusion text and shares one compiled specialization."""
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(inputs):
        raise ConversionError(f"the region takes {len(placeholders)} inputs, got {len(inputs)}")
    index_of = {n: i for i, n in enumerate(placeholders)}
    env, positions = {}, []
    fusion = FusionBuilder()
    ctx = ConversionContext(fusion)

    def value(node):
        if node not in env:  # a region input, defined where it is first used
            x = inputs[index_of[node]]
            if isinstance(x, torch.Tensor):
                handle = fusion.define_tensor(x.shape, x.stride(), x.dtype, x.device)
                ctx.set_info(handle, TensorInfo(x.dtype, x.shape, x.device.type))
                positions.append(index_of[node])
                env[node] = handle
            elif isinstance(x, (bool, int, float)) or x is None:
                env[node] = x  # a symbolic size: a constant of this specialization
            else:
                raise ConversionError(f"region input {node.name} is a {type(x).__name__}")
        return env[node]

    canonical = _canonical((n for n in graph.nodes if n.op == "call_function"),
                           lambda p: _describe_input(inputs[index_of[p]]) if p in index_of else "?")
    rank = {n: i for i, n in enumerate(canonical)}
    for node in canonical:
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
    order = sorted(range(len(outputs)), key=lambda i: (rank.get(outputs[i], -1), i))
    copies = []
    for i in order:
        handle = value(outputs[i])
        if not isinstance(handle, Tensor):
            raise ConversionError(f"region output {outputs[i]} is not a tensor")
        view = _is_view(outputs[i])
        # seam returns a view of an input as a view (eager's strides); anything else it writes, and
        # then in eager's layout
        fusion.add_output(handle, stride_order=None if view and _views_an_input(outputs[i])
                          else _eager_layout(outputs[i]))
        copies.append(not view)
    return Translation(fusion, positions, order, copies)


def _describe_input(x):
    if isinstance(x, torch.Tensor):
        return f"in:{x.dtype}:{tuple(x.shape)}:{x.stride()}"
    return f"in:{type(x).__name__}:{x!r}"


def _eager_layout(node):
    """The stride_order that gives a computed output the strides eager gives it (a pointwise op on a
    transposed input is transposed in eager; PyTorch's next op, a .view, may depend on it), or None
    where the graph recorded none usable (seam's own layout then)."""
    info, strides = tensor_info(node), recorded_strides(node)
    if info is None or strides is None or info.rank < 2:
        return None
    return stride_order(info.shape, strides)


def _views_an_input(node):
    """Whether a view op's result is, through views alone, a view of a region input."""
    while node.op == "call_function" and _is_view(node):
        node = node.args[0].args[0] if node.target is operator.getitem else node.args[0]
        if not isinstance(node, torch.fx.Node):
            return False
    return node.op == "placeholder"


def _is_view(node):
    """Whether aten's result for `node` may alias an input (a view op, or a getitem of a view op)."""
    if node.op == "call_function" and node.target is operator.getitem:
        node = node.args[0]
    conv = REGISTRY.get(node.target) if node.op == "call_function" else None
    return conv is not None and conv.view
