"""Supports-checks shared by several converters: they read the node's recorded values only."""

from ..node_meta import FLOATING, tensor_info


def tensor_args(node):
    return [tensor_info(a) for a in node.all_input_nodes]


def floating_inputs(node, settings):
    """Every tensor operand floating (the op's math is defined on floats here)."""
    infos = tensor_args(node)
    if any(i is None or i.dtype not in FLOATING for i in infos):
        return "needs floating tensor operands"
    return True


def plain_numbers(*values):
    """Arguments that must be Python numbers (not graph values) for the converter to bake them in."""
    return all(isinstance(v, (bool, int, float)) for v in values)


def kwarg(node, name, position, default=None):
    if name in node.kwargs:
        return node.kwargs[name]
    return node.args[position] if len(node.args) > position else default
