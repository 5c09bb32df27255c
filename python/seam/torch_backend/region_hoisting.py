"""Moving work from a later seam region into an earlier one when that moves fewer bytes between them.

torch.fx's CapabilityBasedPartitioner merges a supported node into the region of its users, so a product
that only needs an earlier region's value can land in a later region, with everything it reads handed
across. GPT-2's tied lm_head is the case: the backward's weight gradient, `pad(grad_logits)^T @ hidden`,
sits with its sum with the embedding's gradient (computed by PyTorch in between), so the [8192, 50257]
logits gradient (824 MB in bf16) was written by one region and read and padded again by the next, where
the [50257, 1024] product it feeds (103 MB) is all the later region needs.

The rule, per pair of regions (Q, P) where P reads a value of Q: the nodes of P that read only Q's values,
graph inputs and each other (so computing them in Q adds no dependency to Q) move to Q when the bytes
written and read across both regions' boundaries fall; nodes at the end of that set whose own result is
bigger than what they read (a widening cast) stay in P when keeping them there saves more. Byte counts use
the traced shapes; a value whose size is unknown (symbolic) stops the move."""

import operator

from .node_meta import tensor_info

_ELEMENT_BYTES = {}


def _element_bytes(dtype):
    if dtype not in _ELEMENT_BYTES:
        import torch

        _ELEMENT_BYTES[dtype] = torch.empty((), dtype=dtype).element_size()
    return _ELEMENT_BYTES[dtype]


def value_bytes(node):
    """Bytes of a node's tensor value, 0 for a non-tensor (a getitem's tuple source), None when unknown."""
    info = tensor_info(node)
    if info is None:
        return 0 if node.target is not operator.getitem and _is_tuple(node) else None
    numel = info.static_numel()
    return None if numel is None else numel * _element_bytes(info.dtype)


def _is_tuple(node):
    return bool(node.users) and all(u.op == "call_function" and u.target is operator.getitem for u in node.users)


def is_graph_input(node):
    """A value any region can read without depending on another region: a graph input or attribute."""
    return node.op in ("placeholder", "get_attr")


def boundary_bytes(members):
    """Bytes a region moves across its boundary: each value it reads from outside once, each value it
    computes that something outside it uses once. None when a size is unknown."""
    total = 0
    read = set()
    for node in members:
        for source in node.all_input_nodes:
            if source not in members and source not in read:
                read.add(source)
                b = value_bytes(source)
                if b is None:
                    return None
                total += b
        if any(user not in members for user in node.users):
            b = value_bytes(node)
            if b is None:
                return None
            total += b
    return total


def _movable(earlier, later, order):
    """The nodes of `later` that read only `earlier`'s values, graph inputs and each other, in graph order."""
    moved = set()
    for node in sorted(later, key=order.get):
        if node.op != "call_function":
            continue
        if all(is_graph_input(s) or s in earlier or s in moved for s in node.all_input_nodes):
            moved.add(node)
    return moved


def _cost(earlier, later, moved):
    a = boundary_bytes(set(earlier) | moved)
    b = boundary_bytes(set(later) - moved)
    return None if a is None or b is None else a + b


def _trim(earlier, later, moved):
    """Drops from `moved` the nodes none of the others read (last first) while that lowers the cost."""
    best = _cost(earlier, later, moved)
    improved = best is not None
    while improved and moved:
        improved = False
        for node in list(moved):
            if any(user in moved for user in node.users):
                continue
            if node.target is operator.getitem or _is_tuple(node):
                continue  # a tuple and its getitems move together
            trial = moved - {node}
            cost = _cost(earlier, later, trial)
            if cost is not None and cost < best:
                moved, best, improved = trial, cost, True
                break
    return moved, best


def hoist_into_earlier_regions(partitions, gm):
    """Moves nodes between the partitions (torch.fx Partition objects, nodes of `gm`) by the rule above, in
    place; returns how many nodes moved."""
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    owner = {}
    for p in partitions:
        for n in p.nodes:
            owner[n] = p
    count = 0
    for later in sorted(partitions, key=lambda p: min((order[n] for n in p.nodes), default=0)):
        sources = {owner[s] for n in later.nodes for s in n.all_input_nodes if s in owner and owner[s] is not later}
        for earlier in sorted(sources, key=lambda p: -min(order[n] for n in p.nodes)):
            moved = _movable(earlier.nodes, later.nodes, order)
            # a tuple moves only with all of its getitems
            moved = {n for n in moved if not _is_tuple(n) or all(u in moved for u in n.users)}
            moved = {n for n in moved if n.target is not operator.getitem or n.args[0] in moved}
            if not moved:
                continue
            before = _cost(earlier.nodes, later.nodes, set())
            moved, after = _trim(earlier.nodes, later.nodes, moved)
            if not moved or before is None or after is None or after >= before:
                continue
            for n in moved:
                later.remove_node(n)
                earlier.add_node(n)
                owner[n] = earlier
            count += len(moved)
    return count
