"""Tensor layouts in nvFuser's terms: contiguity (in allocation order, None for broadcast axes) and
stride_order, derived from sizes and strides and checked against a tensor at execute time."""


def compute_tensor_descriptor(sizes, strides):
    """(contiguity, stride_order) of a tensor with these sizes and strides, as nvFuser derives them:
    axes of non-zero stride sorted by decreasing stride (stable), stride-0 axes kept in place, then each
    axis marked None (broadcast: extent 1 or stride 0), True (its stride is the extent times the stride
    of the next inner non-broadcast axis, 1 for the innermost) or False."""
    sizes, strides = list(sizes), list(strides)
    if len(sizes) != len(strides):
        raise ValueError(f"compute_tensor_descriptor: {len(sizes)} sizes and {len(strides)} strides")
    rank = len(sizes)
    movable = sorted((i for i in range(rank) if strides[i] != 0), key=lambda i: -strides[i])
    order, it = [], iter(movable)
    for i in range(rank):
        order.append(i if strides[i] == 0 else next(it))
    # order: logical axes from outermost to innermost in allocation.
    stride_order = [0] * rank
    for position, axis in enumerate(order):
        stride_order[axis] = rank - 1 - position
    contiguity = [None] * rank
    inner = None  # (size, stride) of the next inner non-broadcast axis
    for position in range(rank - 1, -1, -1):
        axis = order[position]
        if sizes[axis] == 1 or strides[axis] == 0:
            continue
        expected = 1 if inner is None else inner[0] * inner[1]
        contiguity[position] = strides[axis] == expected
        inner = (sizes[axis], strides[axis])
    return contiguity, stride_order


def compute_contiguity(sizes, strides):
    """Contiguity per logical axis, in logical order (no reordering by stride, unlike
    compute_tensor_descriptor): None for a broadcast axis (extent 1 or stride 0), else whether its stride
    is the extent times the stride of the next inner non-broadcast axis (1 for the innermost)."""
    sizes, strides = list(sizes), list(strides)
    if len(sizes) != len(strides):
        raise ValueError(f"compute_contiguity: {len(sizes)} sizes and {len(strides)} strides")
    contiguity = [None] * len(sizes)
    expected = 1
    for axis in range(len(sizes) - 1, -1, -1):
        if sizes[axis] == 1 or strides[axis] == 0:
            continue
        contiguity[axis] = strides[axis] == expected
        expected = sizes[axis] * strides[axis]
    return contiguity


def row_major_strides(shape):
    """The strides of a contiguous tensor of `shape`, in elements."""
    strides, step = [], 1
    for e in reversed(shape):
        strides.append(step)
        step *= e
    return strides[::-1]


def allocation_order(stride_order, rank):
    """Logical axes from outermost to innermost (empty stride_order: row-major)."""
    if not stride_order:
        return list(range(rank))
    return sorted(range(rank), key=lambda d: -(stride_order[d] % rank))


def check_layout(label, shape, contiguity, stride_order, sizes, strides):
    """Raises ValueError when a tensor of `sizes`/`strides` does not fit a declaration."""
    rank = len(shape)
    for d in range(rank):
        declared, actual = shape[d], sizes[d]
        if declared == 1 and actual != 1:
            raise ValueError(f"{label}: dim {d} is declared broadcast (extent 1), got extent {actual}")
        if declared not in (-1, 1) and declared != actual:
            raise ValueError(f"{label}: dim {d} is declared with static extent {declared}, got {actual}")
    if any(s == 0 for s in sizes):
        return  # no element to address: strides do not matter
    order = allocation_order(stride_order, rank)
    inner = None
    for position in range(rank - 1, -1, -1):
        axis = order[position]
        c = contiguity[position]
        size, stride = sizes[axis], strides[axis]
        if c is None:
            if size != 1 and stride != 0:
                raise ValueError(f"{label}: dim {axis} is declared broadcast (contiguity None) but has extent "
                                 f"{size} and stride {stride}; an expanded broadcast needs stride 0")
            continue
        if c and size != 1:
            expected = 1 if inner is None else inner[0] * inner[1]
            if stride != expected:
                raise ValueError(f"{label}: stride mismatch with contiguity info: dim {axis} must have stride "
                                 f"{expected} (contiguous in allocation order {order}), got {stride} "
                                 f"(strides {list(strides)})")
        if size != 1:  # an extent-1 axis's stride addresses nothing
            inner = (size, stride)
