"""Work that reads only graph inputs, recomputed in each seam region that uses it.

A causal mask built from `ones` and `tril`, the labels' shift and ignore mask, a weight's transpose: such
values depend on nothing a region computes, so torch.fx's partitioner merges them into whichever region
its merge order reaches first, and the region hands them to the others. That costs a write and reads
across regions, and it makes the regions of otherwise identical layers differ (the one holding the mask
is not its neighbour's copy), so they compile twice. Each region that reads such a value now computes
it from the graph inputs itself, as seam's segmenter does with cheap ops inside a region, when that reads
no more than the value it replaces: the value's cone (the supported nodes it is computed from, graph
inputs at its leaves) is copied into the region, and the original goes once nothing reads it. Such a
value that something outside every region reads (a graph output: a mask saved for the backward; an op
PyTorch runs) is computed for those readers by the first region, when that adds no read of note.

Only cones of ops seam takes (nodes of some region), of traced static sizes, without matrix products or
reductions, whose result is no smaller than what the cone reads from the graph inputs (a mask from
nothing, a transpose, a cast). In a backward graph the saved activations are graph inputs too: the
products and reductions over them are the step's work, never copied."""

import operator

from .node_meta import tensor_info
from .region_hoisting import is_graph_input, value_bytes

_PRODUCTS = ("mm", "bmm", "addmm", "baddbmm", "matmul", "linear", "convolution")


def _elements(node):
    info = tensor_info(node)
    return None if info is None else info.static_numel()


def _cheap(node):
    """An op worth computing again: not a matrix product, and no reduction (its result has at least the
    elements of each tensor it reads)."""
    name = getattr(getattr(node.target, "_overloadpacket", None), "__name__", str(node.target))
    if name in _PRODUCTS:
        return False
    out = _elements(node)
    if out is None:
        return False
    for source in node.all_input_nodes:
        n = _elements(source)
        if n is None or n > out:
            return False
    return True


def _cone(value, owner):
    """The nodes `value` is computed from, inputs aside, in graph order; None where one of them is not a
    region's node (PyTorch runs it) or reads anything but graph inputs and the cone."""
    cone, stack = set(), [value]
    while stack:
        n = stack.pop()
        if n in cone or is_graph_input(n):
            continue
        if n.op != "call_function" or n not in owner or not _cheap(n):
            return None
        cone.add(n)
        stack.extend(n.all_input_nodes)
    return cone


def _worth_recomputing(value, cone):
    """The cone reads no more bytes of graph inputs than the value holds."""
    produced = value_bytes(value)
    if produced is None:
        return False
    read = 0
    for leaf in {s for n in cone for s in n.all_input_nodes if is_graph_input(s)}:
        b = value_bytes(leaf)
        if b is None:
            return False
        read += b
    return read <= produced


def _copy_cone(graph, cone, region, before, owner):
    """Copies of the cone's nodes added to `region` ahead of `before`, each after the copies of what it
    reads (a cone is a few nodes: no graph-wide order needed); returns original -> copy."""
    copies, pending = {}, list(cone)
    with graph.inserting_before(before):
        while pending:
            n = next(n for n in pending if all(s in copies or s not in cone for s in n.all_input_nodes))
            pending.remove(n)
            copies[n] = graph.node_copy(n, lambda a: copies.get(a, a))
            region.add_node(copies[n])
            owner[copies[n]] = region
    return copies


def _ancestors(nodes):
    seen, stack = set(), [s for n in nodes for s in n.all_input_nodes]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(n.all_input_nodes)
    return seen


_SMALL_READ = 1 << 16


def _new_reads(cone, region):
    """Bytes of the graph inputs `cone` reads that `region` does not read yet (unknown sizes: all of it)."""
    read = {s for n in region.nodes for s in n.all_input_nodes}
    total = 0
    for leaf in {s for n in cone for s in n.all_input_nodes if is_graph_input(s) and s not in read}:
        b = value_bytes(leaf)
        total += (1 << 62) if b is None else b
    return total


def _serve_outside_readers_from_the_first(partitions, graph, owner, originals):
    """Input-only values that something outside their region reads (a graph output: a mask saved for the
    backward; an op PyTorch runs) are computed by the first region for those readers, so that no later
    region holds work only because the partitioner's merge order put it there."""
    order = {n: i for i, n in enumerate(graph.nodes)}
    ranked = sorted((p for p in partitions if p.nodes), key=lambda p: min(order[n] for n in p.nodes))
    if len(ranked) < 2:
        return 0
    first = ranked[0]
    first_node = min(first.nodes, key=order.get)
    before_first = _ancestors(first.nodes)
    copied = 0
    for p in ranked[1:]:
        for value in sorted(p.nodes, key=order.get):
            outside = [u for u in value.users if owner.get(u) is not p]
            if not outside or value.target is operator.getitem or any(u in before_first for u in outside):
                continue
            cone = _cone(value, owner)
            if not cone or any(owner[n] is not p for n in cone) or value_bytes(value) is None:
                continue
            # No new reads of note: the first region already reads the cone's inputs, or this region stops
            # needing the cone (only outside readers used it), so its reads move rather than double; a
            # small input read twice (labels, positions: at most _SMALL_READ bytes) is worth one
            # compilation less.
            used_here = any(owner.get(u) is p and u not in cone for n in cone for u in n.users)
            if used_here and _new_reads(cone, first) > _SMALL_READ:
                continue
            copies = _copy_cone(graph, cone, first, first_node, owner)
            for user in outside:
                user.replace_input_with(value, copies[value])
            originals |= cone
            copied += len(cone)
    return copied


def recompute_input_only_work(partitions, gm):
    """Copies, into each partition, the input-only cones of the values it reads from other partitions
    (the rule above), and drops originals nothing reads any more; returns how many nodes were copied."""
    graph = gm.graph
    order = {n: i for i, n in enumerate(graph.nodes)}
    owner = {n: p for p in partitions for n in p.nodes}
    copied, originals = 0, set()
    for p in partitions:
        reads = sorted({s for n in p.nodes for s in n.all_input_nodes if s in owner and owner[s] is not p},
                       key=order.get)
        first = min(p.nodes, key=order.get, default=None)
        for value in reads:
            if value.target is operator.getitem:
                continue
            cone = _cone(value, owner)
            if not cone or not _worth_recomputing(value, cone):
                continue
            copies = _copy_cone(graph, cone, p, first, owner)
            for user in [u for u in value.users if owner.get(u) is p]:
                user.replace_input_with(value, copies[value])
            originals |= cone
            copied += len(cone)
    copied += _serve_outside_readers_from_the_first(partitions, graph, owner, originals)
    # the copied originals that no reader is left for, last first (a cone's inner nodes free up after it)
    for n in reversed(list(graph.nodes)):
        if n in originals and not n.users:
            owner[n].remove_node(n)
            graph.erase_node(n)
    return copied
