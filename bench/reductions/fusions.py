"""The reduction and normalization benchmark as seam fusion text (standard library only).

Each kind is written the way PyTorch decomposes the function that bench/reductions/torch_functions.py
defines for it: bf16 inputs and outputs, f32 compute, every value named. `fusion_text(kind, m, n)` gives
the text of one shape; the files under bench/reductions/ are `write_set` of BENCHMARK_SET, and
make_sweep.py writes the sweep. Every file starts with a `# bench: KIND M N` line, which
reductions_vs_torch.py reads to pick the PyTorch function and its inputs.
"""

# kind: one line describing it (the file's comment).
KINDS = {
    "rmsnorm_fwd": "RMSNorm forward: y = x * rsqrt(mean(x^2) + 1e-6) * w",
    "add_rmsnorm_fwd": "residual add + RMSNorm forward: h = x + r, y = rmsnorm(h) * w (h and y out)",
    "layernorm_fwd": "LayerNorm forward: y = (x - mean) * rsqrt(var + 1e-5) * w + b (biased variance)",
    "softmax_fwd": "softmax forward over the last axis: exp(x - max) / sum(exp(x - max))",
    "log_softmax_fwd": "log-softmax forward over the last axis: (x - max) - log(sum(exp(x - max)))",
    "softmax_bwd": "softmax backward: dx = y * (dy - sum(y * dy))",
    "rmsnorm_bwd": "RMSNorm backward: dx = rstd * (dy*w - xhat * mean(dy*w*xhat)), dw = sum over rows of dy*xhat",
    "layernorm_bwd": "LayerNorm backward: dx, dw = sum over rows of dy*xhat, db = sum over rows of dy",
    "cross_entropy_fwd": "cross-entropy forward per row: loss = logsumexp(x) - x[target]",
    "cross_entropy_bwd": "cross-entropy backward: dlogits = dloss * (softmax(x) - onehot(target)), 0 where target = -100",
    "cross_entropy_fwd_bwd": "cross-entropy forward and backward from one read of the logits: loss per row (0 where "
    "target = -100) and dlogits = dloss * (softmax(x) - onehot(target))",
    "swiglu_fwd": "SwiGLU forward: y = silu(g) * u",
}

# The benchmark set (issue 16): (kind, M, N).
BENCHMARK_SET = [
    ("rmsnorm_fwd", 16384, 4096),
    ("rmsnorm_fwd", 16384, 8192),
    ("rmsnorm_fwd", 4096, 16384),
    ("add_rmsnorm_fwd", 16384, 4096),
    ("layernorm_fwd", 16384, 4096),
    ("softmax_fwd", 16384, 8192),
    ("softmax_fwd", 4096, 32768),
    ("log_softmax_fwd", 16384, 8192),
    ("softmax_bwd", 16384, 8192),
    ("rmsnorm_bwd", 16384, 4096),
    ("layernorm_bwd", 16384, 4096),
    ("cross_entropy_fwd", 4096, 32000),
    ("cross_entropy_fwd", 4096, 128256),
    ("cross_entropy_bwd", 4096, 32000),
    ("cross_entropy_bwd", 4096, 128256),
    ("cross_entropy_fwd_bwd", 4096, 32000),
    ("cross_entropy_fwd_bwd", 4096, 128256),
    ("swiglu_fwd", 16384, 14336),
]

RMSNORM_EPS = 1e-6
LAYERNORM_EPS = 1e-5
IGNORE_INDEX = -100  # torch.nn.functional.cross_entropy's default


def file_name(kind, m, n):
    return f"{kind}_{m}x{n}.seam"


class _Text:
    """Fusion text with explicit types: every statement states its result type, as the format wants."""

    def __init__(self, name, comment):
        self.lines = [f"# {line}" for line in comment] + [f"fusion {name} {{"]

    @staticmethod
    def type_of(dtype, shape):
        return dtype if shape is None else f"{dtype}[{','.join(str(d) for d in shape)}]"

    def emit(self, name, op, operands, attrs, dtype, shape):
        ops = " " + ", ".join(f"%{o[0]}" for o in operands) if operands else ""
        attr_text = " {" + ", ".join(attrs) + "}" if attrs else ""
        self.lines.append(f"  %{name} = {op}{ops}{attr_text} : {self.type_of(dtype, shape)}")
        return (name, dtype, shape)

    def input(self, name, dtype, shape):
        return self.emit(name, "input", [], [f'name="{name}"'], dtype, shape)

    def const(self, name, value, dtype="f32"):
        return self.emit(name, "const", [], [f"value={value!r}"], dtype, None)

    def cast(self, name, v, dtype):
        return self.emit(name, "cast", [v], [f"dtype={dtype}"], dtype, v[2])

    def unary(self, name, op, v):
        return self.emit(name, op, [v], [], v[1], v[2])

    def binary(self, name, op, a, b):
        shape = a[2] if a[2] is not None else b[2]
        dtype = "bool" if op in ("eq", "ne", "lt", "le", "gt", "ge") else a[1]
        return self.emit(name, op, [a, b], [], dtype, shape)

    def where(self, name, cond, a, b):
        return self.emit(name, "where", [cond, a, b], [], a[1], cond[2])

    def reduce(self, name, op, v, axis, keepdim):
        shape = list(v[2])
        if keepdim:
            shape[axis] = 1
        else:
            del shape[axis]
        attrs = [f"axes=[{axis}]", f"keepdim={'true' if keepdim else 'false'}"]
        return self.emit(name, op, [v], attrs, v[1], shape)

    def expand(self, name, v, shape):
        return self.emit(name, "expand", [v], [f"shape=[{','.join(str(d) for d in shape)}]"], v[1], shape)

    def row_vector(self, name, v, m):
        """A [N] vector broadcast to every row of an [M,N] tensor."""
        one = self.emit(name + "_row", "broadcast", [v], ["axes=[0]"], v[1], [1] + list(v[2]))
        return self.expand(name + "_rows", one, [m] + list(v[2]))

    def iota(self, name, dtype, n):
        return self.emit(name, "iota", [], ["start=0", "step=1"], dtype, [n])

    def finish(self, outputs):
        self.lines.append("  return " + ", ".join(f"{name}=%{v[0]}" for name, v in outputs))
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def _rmsnorm_core(t, xf, m, n):
    """rstd = rsqrt(mean(x^2) + eps) per row, as [M,1] and expanded to [M,N]."""
    sq = t.binary("x_sq", "mul", xf, xf)
    ss = t.reduce("sum_sq", "sum", sq, 1, True)
    ms = t.binary("mean_sq", "div", ss, t.const("n", float(n)))
    var = t.binary("mean_sq_eps", "add", ms, t.const("eps", RMSNORM_EPS))
    rstd = t.unary("rstd", "rsqrt", var)
    return rstd, t.expand("rstd_rows", rstd, [m, n])


def _rmsnorm_fwd(t, m, n):
    x, w = t.input("x", "bf16", [m, n]), t.input("w", "bf16", [n])
    xf = t.cast("xf", x, "f32")
    _, rstd_rows = _rmsnorm_core(t, xf, m, n)
    normed = t.binary("normed", "mul", xf, rstd_rows)
    wf = t.row_vector("wf", t.cast("w32", w, "f32"), m)
    y = t.cast("y", t.binary("yf", "mul", normed, wf), "bf16")
    return [("y", y)]


def _add_rmsnorm_fwd(t, m, n):
    x, r, w = t.input("x", "bf16", [m, n]), t.input("r", "bf16", [m, n]), t.input("w", "bf16", [n])
    hf = t.binary("hf", "add", t.cast("xf", x, "f32"), t.cast("rf", r, "f32"))
    h = t.cast("h", hf, "bf16")  # PyTorch's bf16 add: the sum rounded once
    h32 = t.cast("h32", h, "f32")
    _, rstd_rows = _rmsnorm_core(t, h32, m, n)
    normed = t.binary("normed", "mul", h32, rstd_rows)
    wf = t.row_vector("wf", t.cast("w32", w, "f32"), m)
    y = t.cast("y", t.binary("yf", "mul", normed, wf), "bf16")
    return [("h", h), ("y", y)]


def _layernorm_fwd(t, m, n):
    x, w, b = t.input("x", "bf16", [m, n]), t.input("w", "bf16", [n]), t.input("b", "bf16", [n])
    xf = t.cast("xf", x, "f32")
    count = t.const("n", float(n))
    mean = t.binary("mean", "div", t.reduce("sum_x", "sum", xf, 1, True), count)
    centered = t.binary("centered", "sub", xf, t.expand("mean_rows", mean, [m, n]))
    sq = t.binary("centered_sq", "mul", centered, centered)
    var = t.binary("var", "div", t.reduce("sum_sq", "sum", sq, 1, True), count)
    rstd = t.unary("rstd", "rsqrt", t.binary("var_eps", "add", var, t.const("eps", LAYERNORM_EPS)))
    normed = t.binary("normed", "mul", centered, t.expand("rstd_rows", rstd, [m, n]))
    scaled = t.binary("scaled", "mul", normed, t.row_vector("wf", t.cast("w32", w, "f32"), m))
    yf = t.binary("yf", "add", scaled, t.row_vector("bf", t.cast("b32", b, "f32"), m))
    return [("y", t.cast("y", yf, "bf16"))]


def _softmax_parts(t, x, m, n):
    xf = t.cast("xf", x, "f32")
    row_max = t.reduce("row_max", "max", xf, 1, True)
    shifted = t.binary("shifted", "sub", xf, t.expand("max_rows", row_max, [m, n]))
    e = t.unary("e", "exp", shifted)
    s = t.reduce("sum_e", "sum", e, 1, True)
    return shifted, e, s


def _softmax_fwd(t, m, n):
    _, e, s = _softmax_parts(t, t.input("x", "bf16", [m, n]), m, n)
    p = t.binary("pf", "div", e, t.expand("sum_rows", s, [m, n]))
    return [("y", t.cast("y", p, "bf16"))]


def _log_softmax_fwd(t, m, n):
    shifted, _, s = _softmax_parts(t, t.input("x", "bf16", [m, n]), m, n)
    log_s = t.unary("log_sum", "log", s)
    out = t.binary("yf", "sub", shifted, t.expand("log_sum_rows", log_s, [m, n]))
    return [("y", t.cast("y", out, "bf16"))]


def _softmax_bwd(t, m, n):
    y, dy = t.input("y", "bf16", [m, n]), t.input("dy", "bf16", [m, n])
    yf, dyf = t.cast("yf", y, "f32"), t.cast("dyf", dy, "f32")
    dot = t.reduce("dot", "sum", t.binary("y_dy", "mul", yf, dyf), 1, True)
    diff = t.binary("diff", "sub", dyf, t.expand("dot_rows", dot, [m, n]))
    return [("dx", t.cast("dx", t.binary("dxf", "mul", yf, diff), "bf16"))]


def _rmsnorm_bwd(t, m, n):
    x, w, dy = t.input("x", "bf16", [m, n]), t.input("w", "bf16", [n]), t.input("dy", "bf16", [m, n])
    rstd = t.input("rstd", "f32", [m, 1])
    xf, dyf = t.cast("xf", x, "f32"), t.cast("dyf", dy, "f32")
    rstd_rows = t.expand("rstd_rows", rstd, [m, n])
    xhat = t.binary("xhat", "mul", xf, rstd_rows)
    dw = t.reduce("dwf", "sum", t.binary("dy_xhat", "mul", dyf, xhat), 0, False)
    g = t.binary("g", "mul", dyf, t.row_vector("wf", t.cast("w32", w, "f32"), m))
    c = t.binary("c", "div", t.reduce("sum_g_xhat", "sum", t.binary("g_xhat", "mul", g, xhat), 1, True),
                 t.const("n", float(n)))
    inner = t.binary("inner", "sub", g, t.binary("xhat_c", "mul", xhat, t.expand("c_rows", c, [m, n])))
    dx = t.binary("dxf", "mul", rstd_rows, inner)
    return [("dx", t.cast("dx", dx, "bf16")), ("dw", t.cast("dw", dw, "bf16"))]


def _layernorm_bwd(t, m, n):
    x, w, dy = t.input("x", "bf16", [m, n]), t.input("w", "bf16", [n]), t.input("dy", "bf16", [m, n])
    mean, rstd = t.input("mean", "f32", [m, 1]), t.input("rstd", "f32", [m, 1])
    xf, dyf = t.cast("xf", x, "f32"), t.cast("dyf", dy, "f32")
    rstd_rows = t.expand("rstd_rows", rstd, [m, n])
    xhat = t.binary("xhat", "mul", t.binary("centered", "sub", xf, t.expand("mean_rows", mean, [m, n])), rstd_rows)
    dw = t.reduce("dwf", "sum", t.binary("dy_xhat", "mul", dyf, xhat), 0, False)
    db = t.reduce("dbf", "sum", dyf, 0, False)
    g = t.binary("g", "mul", dyf, t.row_vector("wf", t.cast("w32", w, "f32"), m))
    count = t.const("n", float(n))
    mean_g = t.binary("mean_g", "div", t.reduce("sum_g", "sum", g, 1, True), count)
    mean_gx = t.binary("mean_g_xhat", "div", t.reduce("sum_g_xhat", "sum", t.binary("g_xhat", "mul", g, xhat), 1, True),
                       count)
    inner = t.binary("g_centered", "sub", g, t.expand("mean_g_rows", mean_g, [m, n]))
    inner = t.binary("inner", "sub", inner, t.binary("xhat_c", "mul", xhat, t.expand("mean_g_xhat_rows", mean_gx, [m, n])))
    dx = t.binary("dxf", "mul", rstd_rows, inner)
    return [("dx", t.cast("dx", dx, "bf16")), ("dw", t.cast("dw", dw, "bf16")), ("db", t.cast("db", db, "bf16"))]


def _cross_entropy_fwd(t, m, n):
    x, target = t.input("logits", "bf16", [m, n]), t.input("targets", "i64", [m])
    xf = t.cast("xf", x, "f32")
    row_max = t.reduce("row_max", "max", xf, 1, True)
    shifted = t.binary("shifted", "sub", xf, t.expand("max_rows", row_max, [m, n]))
    s = t.reduce("sum_e", "sum", t.unary("e", "exp", shifted), 1, False)
    row_max_flat = t.emit("row_max_flat", "squeeze", [row_max], ["axes=[1]"], "f32", [m])
    lse = t.binary("lse", "add", t.unary("log_sum", "log", s), row_max_flat)
    # The target's logit, read by take_along_axis (as torch's cross_entropy gathers it).
    target_col = t.emit("target_col", "broadcast", [target], ["axes=[1]"], "i64", [m, 1])
    picked_col = t.emit("picked_col", "take_along_axis", [xf, target_col], ["axis=1"], "f32", [m, 1])
    picked = t.emit("picked", "squeeze", [picked_col], ["axes=[1]"], "f32", [m])
    return [("loss", t.binary("loss", "sub", lse, picked))]


def _cross_entropy_grad(t, m, n, targets, dloss, e, s_col, valid):
    """dlogits = dloss * (softmax(x) - onehot(target)) in bf16, rows whose target is ignored give 0.

    The upstream gradient is per row (`dloss` f32[M], reduction="none"); a mean over the rows that are
    not ignored is dloss = g / (number of such rows) in every row, as autograd gives for reduction="mean".
    """
    p = t.binary("p", "div", e, t.expand("sum_rows", s_col, [m, n]))
    cols = t.row_vector("cols", t.iota("col", "i64", n), m)
    target_rows = t.expand("target_rows", t.emit("target_col", "broadcast", [targets], ["axes=[1]"], "i64", [m, 1]),
                           [m, n])
    onehot = t.cast("onehot", t.binary("is_target", "eq", cols, target_rows), "f32")
    scale = t.where("scale", valid, dloss, t.const("zero", 0.0))
    scale_rows = t.expand("scale_rows", t.emit("scale_col", "broadcast", [scale], ["axes=[1]"], "f32", [m, 1]), [m, n])
    grad = t.binary("gradf", "mul", t.binary("p_minus_onehot", "sub", p, onehot), scale_rows)
    return t.cast("dlogits", grad, "bf16")


def _cross_entropy_parts(t, m, n):
    x, targets = t.input("logits", "bf16", [m, n]), t.input("targets", "i64", [m])
    dloss = t.input("dloss", "f32", [m])
    xf = t.cast("xf", x, "f32")
    row_max = t.reduce("row_max", "max", xf, 1, True)
    shifted = t.binary("shifted", "sub", xf, t.expand("max_rows", row_max, [m, n]))
    e = t.unary("e", "exp", shifted)
    s_col = t.reduce("sum_e", "sum", e, 1, True)
    valid = t.binary("valid", "ne", targets, t.const("ignore_index", IGNORE_INDEX, "i64"))
    return targets, dloss, xf, row_max, e, s_col, valid


def _cross_entropy_bwd(t, m, n):
    targets, dloss, _, _, e, s_col, valid = _cross_entropy_parts(t, m, n)
    return [("dlogits", _cross_entropy_grad(t, m, n, targets, dloss, e, s_col, valid))]


def _cross_entropy_fwd_bwd(t, m, n):
    targets, dloss, xf, row_max, e, s_col, valid = _cross_entropy_parts(t, m, n)
    flat = lambda name, v: t.emit(name, "squeeze", [v], ["axes=[1]"], "f32", [m])  # noqa: E731
    lse = t.binary("lse", "add", t.unary("log_sum", "log", flat("sum_flat", s_col)), flat("row_max_flat", row_max))
    # An ignored row gathers class 0 (any class in range) and its loss is 0, as torch's reduction="none".
    safe = t.where("safe_target", valid, targets, t.const("class_0", 0, "i64"))
    target_col = t.emit("safe_col", "broadcast", [safe], ["axes=[1]"], "i64", [m, 1])
    picked = flat("picked", t.emit("picked_col", "take_along_axis", [xf, target_col], ["axis=1"], "f32", [m, 1]))
    loss = t.where("loss", valid, t.binary("loss_valid", "sub", lse, picked), t.const("zero_loss", 0.0))
    return [("loss", loss), ("dlogits", _cross_entropy_grad(t, m, n, targets, dloss, e, s_col, valid))]


def _swiglu_fwd(t, m, n):
    g, u = t.input("g", "bf16", [m, n]), t.input("u", "bf16", [m, n])
    gf = t.cast("gf", g, "f32")
    silu = t.binary("silu", "mul", gf, t.unary("sig", "sigmoid", gf))
    y = t.binary("yf", "mul", silu, t.cast("uf", u, "f32"))
    return [("y", t.cast("y", y, "bf16"))]


_BUILDERS = {
    "rmsnorm_fwd": _rmsnorm_fwd,
    "add_rmsnorm_fwd": _add_rmsnorm_fwd,
    "layernorm_fwd": _layernorm_fwd,
    "softmax_fwd": _softmax_fwd,
    "log_softmax_fwd": _log_softmax_fwd,
    "softmax_bwd": _softmax_bwd,
    "rmsnorm_bwd": _rmsnorm_bwd,
    "layernorm_bwd": _layernorm_bwd,
    "cross_entropy_fwd": _cross_entropy_fwd,
    "cross_entropy_bwd": _cross_entropy_bwd,
    "cross_entropy_fwd_bwd": _cross_entropy_fwd_bwd,
    "swiglu_fwd": _swiglu_fwd,
}
assert set(_BUILDERS) == set(KINDS)


def fusion_text(kind, m, n):
    """The fusion text of `kind` at M rows of N elements."""
    if kind not in _BUILDERS:
        raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    comment = [
        f"bench: {kind} {m} {n}",
        f"{KINDS[kind]}; bf16 in and out, f32 compute.",
        "Written by bench/reductions/fusions.py (make_sweep.py --set regenerates the benchmark set).",
    ]
    t = _Text(f"{kind}_{m}x{n}", comment)
    return t.finish(_BUILDERS[kind](t, m, n))


def parse_header(text):
    """(kind, M, N) from a file's `# bench: KIND M N` line, or None."""
    for line in text.splitlines():
        if line.startswith("# bench: "):
            kind, m, n = line[len("# bench: "):].split()
            return kind, int(m), int(n)
    return None


def write_set(directory, entries):
    """Writes one file per (kind, M, N); returns the paths."""
    import os

    os.makedirs(directory, exist_ok=True)
    paths = []
    for kind, m, n in entries:
        path = os.path.join(directory, file_name(kind, m, n))
        with open(path, "w") as f:
            f.write(fusion_text(kind, m, n))
        paths.append(path)
    return paths
