"""Splitting an aten graph into seam regions and PyTorch nodes: torch.fx's CapabilityBasedPartitioner,
asking the converter registry about each node, then each region's submodule replaced by a SeamRegion.
Inside a region seam's own segmenter decides the kernels."""

import logging
import operator

import torch
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from . import converters  # noqa: F401  (registers every converter)
from .input_only_work import recompute_input_only_work
from .node_meta import tensor_info
from .region_hoisting import hoist_into_earlier_regions
from .registry import REGISTRY, overload_name
from .runtime import SeamRegion
from .translate import ORDER, region_outputs

log = logging.getLogger("seam.torch_backend")


class SeamOperatorSupport(OperatorSupportBase):
    """A node is supported when its converter's checks pass; a getitem when its producer is supported.
    `refused` keeps, per overload name, why the last node of it was left to PyTorch."""

    def __init__(self, settings, excluded=frozenset()):
        super().__init__()
        self.settings = settings
        self.excluded = excluded
        self.refused = {}
        self._decided = {}

    def is_node_supported(self, submodules, node):
        if node in self._decided:
            return self._decided[node]
        ok = self._decide(node)
        self._decided[node] = ok
        return ok

    def _decide(self, node):
        if node.op != "call_function":
            return False
        if node.target is operator.getitem:
            source = node.args[0]
            return isinstance(source, torch.fx.Node) and self.is_node_supported(None, source)
        reason = REGISTRY.why_not(node, self.settings)
        if reason is None and node.name in self.excluded:
            reason = f"{overload_name(node.target)}: its converter failed on this graph"
        if reason is not None:
            self.refused[overload_name(node.target)] = reason
            log.debug("seam: %s stays in PyTorch: %s", node.name, reason)
            return False
        return True


class PartitionReport:
    """What the partition did: the regions (their node names) and the nodes left to PyTorch."""

    def __init__(self, regions, pytorch_nodes, refused):
        self.regions = regions
        self.pytorch_nodes = pytorch_nodes
        self.refused = refused

    def __repr__(self):
        return (f"PartitionReport({len(self.regions)} seam region(s) of {sum(map(len, self.regions))} nodes, "
                f"{len(self.pytorch_nodes)} PyTorch node(s))")


def _compute_ops(nodes):
    count = 0
    for n in nodes:
        conv = REGISTRY.get(n.target) if n.op == "call_function" else None
        count += conv is not None and conv.compute
    return count


def _is_view(node):
    if node.op != "call_function":
        return False
    if node.target is operator.getitem:
        return isinstance(node.args[0], torch.fx.Node) and _is_view(node.args[0])
    conv = REGISTRY.get(node.target)
    return conv is not None and conv.view


def _drops_elements(view):
    """Whether a view has fewer elements than its base (a slice, a select), by the recorded shapes."""
    base = view.args[0] if view.args and isinstance(view.args[0], torch.fx.Node) else None
    mine, theirs = tensor_info(view), tensor_info(base) if base is not None else None
    if mine is None or theirs is None:
        return False
    a, b = mine.static_numel(), theirs.static_numel()
    return a is not None and b is not None and a < b


def _serve_outside_users_from_a_copy(view, outside):
    """A copy of `view`, outside every region, right after it in the graph, for the users in `outside`."""
    graph = view.graph
    with graph.inserting_after(view):
        copy = graph.create_node("call_function", view.target, view.args, dict(view.kwargs), name=view.name)
    copy.meta = dict(view.meta)  # the same value: its dtype, shape and eager strides
    for user in outside:
        user.replace_input_with(view, copy)
    return copy


def _trim_boundary_views(partition):
    """Leaves to PyTorch the views a region would hand out: the region returns their base and PyTorch
    makes the view, so an output that aliases another value is the same alias, with the same strides, as
    in eager (AOT autograd regenerates such outputs from their base), and no copy is written for a
    transpose PyTorch's next op reads as strided. A view with users both inside and outside the region
    stays for the inside ones, and a copy of it outside the region serves the others: what a region
    returns does not depend on whether AOT autograd's min-cut saved a value or a view of it (the same
    size: torch 2.11's took the one in one layer of a Llama and the other in the next, and the layers'
    regions differed). Repeated until chains of views reach the value the region computes. Not copied: a
    view with fewer elements than its base (a slice; the region would write the whole base), and a view
    with several results (split), which goes with all its getitems or stays with all of them."""
    changed = True
    while changed:
        changed = False
        for node in list(partition.nodes):
            if node not in partition.nodes or node.target is operator.getitem or not _is_view(node):
                continue
            unit = [node]
            if node.users and all(u.op == "call_function" and u.target is operator.getitem for u in node.users):
                unit += list(node.users)
            users = [u for member in unit for u in member.users if u not in unit]
            outside = [u for u in users if u not in partition.nodes]
            if not outside:
                continue
            if len(outside) == len(users):
                for member in unit:
                    if member in partition.nodes:
                        partition.remove_node(member)
                changed = True
            elif len(unit) == 1 and not _drops_elements(node):
                _serve_outside_users_from_a_copy(node, outside)
                changed = True


_VALUE_KEYS = ("val", "tensor_meta")


def _copy_value(source, target):
    for key in _VALUE_KEYS:
        if key in source.meta and key not in target.meta:
            target.meta[key] = source.meta[key]


def _record_region_values(call, sub):
    """The fuser records no value on a region's call and the getitems of its outputs, nor so on the
    placeholders of later regions that read them: they get the values of the nodes they stand for, so
    that every region input says what eager gives it (precompile.py predicts signatures from them). In
    graph order, a region's inputs are done before it."""
    for placeholder, arg in zip((n for n in sub.graph.nodes if n.op == "placeholder"), call.args):
        if isinstance(arg, torch.fx.Node):
            _copy_value(arg, placeholder)
    outputs, single = region_outputs(sub.graph)
    if single:
        if isinstance(outputs[0], torch.fx.Node):
            _copy_value(outputs[0], call)
        return
    for user in call.users:
        if user.target is operator.getitem and isinstance(user.args[1], int) and \
                isinstance(outputs[user.args[1]], torch.fx.Node):
            _copy_value(outputs[user.args[1]], user)


def _may_alias_an_input(node):
    """Whether a node's result may alias one of its inputs: a view by its schema, a getitem (of a tuple of
    views), a region (it may return a view of an input); any other callable, unknown, counts as one."""
    if node.op == "call_module" or node.target is operator.getitem:
        return True
    schema = getattr(node.target, "_schema", None)
    return schema is None or any(r.alias_info is not None for r in schema.returns)


def _returned(node, seen):
    """Whether the graph returns `node`'s value, as it is or through views (a caller may write into it)."""
    if node in seen:
        return False
    seen.add(node)
    for user in node.users:
        if user.op == "output":
            return True
        if user.op not in ("call_function", "call_module"):
            return True
        if _may_alias_an_input(user) and _returned(user, seen):
            return True
    return False


def _returned_positions(call):
    """The positions of a region's outputs that the graph returns (None: the result is used whole)."""
    if not all(u.op == "call_function" and u.target is operator.getitem and isinstance(u.args[1], int)
               for u in call.users):
        return None
    return frozenset(u.args[1] for u in call.users if _returned(u, set()))


def partition_graph(gm, settings, excluded=frozenset()):
    """The graph with each seam region fused into a SeamRegion submodule, and a PartitionReport. The
    input GraphModule is changed in place (as the fx fuser does). `excluded`: names of nodes left to
    PyTorch because their converter failed."""
    for i, node in enumerate(gm.graph.nodes):
        node.meta[ORDER] = i  # kept through fusion: translation records in this order
    support = SeamOperatorSupport(settings, excluded)
    partitioner = CapabilityBasedPartitioner(gm, support, allows_single_node_partition=True)
    proposed = partitioner.propose_partitions()
    for p in proposed:
        _trim_boundary_views(p)
    if settings.region_hoisting and hoist_into_earlier_regions(proposed, gm):
        for p in proposed:
            _trim_boundary_views(p)
    if settings.recompute_input_only_work:  # among the regions that will launch
        recompute_input_only_work([p for p in proposed if p.nodes and
                                   _compute_ops(p.nodes) >= settings.min_compute_ops], gm)
    kept = [p for p in proposed if p.nodes and _compute_ops(p.nodes) >= settings.min_compute_ops]
    # node order as in the graph, so that region numbering follows the program
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    kept.sort(key=lambda p: min(order[n] for n in p.nodes))
    regions = [[n.name for n in sorted(p.nodes, key=order.get)] for p in kept]
    fused = partitioner.fuse_partitions(kept) if kept else gm
    for node in list(fused.graph.nodes):
        if node.op == "call_module" and node.target.startswith("fused_"):
            sub = fused.get_submodule(node.target)
            region = SeamRegion(sub, settings, node.target, excluded, repartition=partition_graph)
            region.escaping = _returned_positions(node)
            setattr(fused, node.target, region)
            _record_region_values(node, sub)
    pytorch_nodes = [n.name for n in fused.graph.nodes
                     if n.op == "call_function" and n.target is not operator.getitem]
    return fused, PartitionReport(regions, pytorch_nodes, dict(support.refused))

