"""What Dynamo recorded about a node's value (example_value, or val / tensor_meta in other graphs): the
rewrites decide from static shapes and dtypes only."""


def _recorded(node, attribute):
    for key in ("example_value", "val", "tensor_meta"):
        value = getattr(node.meta.get(key), attribute, None)
        if value is not None:
            return value
    return None


def traced_shape(node):
    """The node's shape as ints, or None when it is unrecorded or symbolic."""
    shape = _recorded(node, "shape")
    if shape is None:
        return None
    try:
        return tuple(int(str(s)) for s in shape)
    except ValueError:
        return None


def traced_dtype(node):
    return _recorded(node, "dtype")


def traced_rank(node):
    """The node's number of dimensions (known even where its sizes are symbolic), or None."""
    shape = _recorded(node, "shape")
    return None if shape is None else len(shape)
