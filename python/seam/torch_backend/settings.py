"""The backend's options, in one place (torch.compile(..., options={...}) sets them by name)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class CompilationSettings:
    # mm, bmm and addmm through seam's matmul (cuBLASLt on the GPU, with its epilogues); False leaves every
    # matrix product to PyTorch.
    matmul: bool = True
    # Gather-style ops (embedding as index_select). seam checks indices on the device and waits for the
    # kernel to report a bad one, a synchronization that CUDA graphs cannot capture: off by default.
    indexing: bool = False
    # aten overloads (as printed: "aten.mul.Tensor") always left to PyTorch.
    torch_executed_ops: frozenset = frozenset()
    # Work of a later region that reads only an earlier region's values moves into it when fewer bytes then
    # cross between them (region_hoisting.py): GPT-2's tied lm_head weight gradient, for one.
    region_hoisting: bool = True
    # Values computed from graph inputs alone (a causal mask, a transpose of a weight) recomputed in each
    # region that reads them rather than handed between regions (input_only_work.py): fewer bytes cross,
    # and identical layers' regions stay identical (one compilation).
    recompute_input_only_work: bool = True
    # A region needs at least this many ops that compute (views alone are not worth a launch).
    min_compute_ops: int = 1
    # Compile each region when the graph is compiled, for the input signature the graph recorded, on
    # worker threads (precompile.py); False: each region compiles when it first runs, in that thread.
    compile_ahead: bool = True
    # Threads for compile_ahead; 0: one per CPU core.
    compile_threads: int = 0
    # Attention calls whose boolean mask the graph proves is the causal triangle run with is_causal=True and
    # no mask, and with the unrepeated keys and values (enable_gqa) where they are a plain repeat of KV heads
    # (rewrites/attention.py); any other mask is left alone.
    causal_attention: bool = True
    # With causal_attention: keys and values that repeat KV heads passed unrepeated with enable_gqa.
    unrepeated_kv: bool = True
    # lm_head + cross-entropy (without class weights or label smoothing, reduction mean or sum) through
    # seam's fused linear + cross-entropy: chunked products, no [rows, vocab] f32 logits, log-softmax or
    # gradient (rewrites/linear_cross_entropy.py). Off until measured on the GPU.
    linear_cross_entropy: bool = False
    # Cross-entropy of float32 scores as log-sum-exp minus the target's score (rewrites/cross_entropy.py), so
    # that the backward reads the logits and one float per row, never a saved [rows, classes] log-softmax.
    cross_entropy_from_logsumexp: bool = True
    # `detach` traced as `alias`, so that torch 2's min-cut may recompute values autograd saved as op
    # outputs instead of saving them (decompositions.py). Off until measured: it changes what every graph
    # saves.
    recompute_saved_outputs: bool = False
    # A folder: each region's fusion (text format, before seam's passes) is written there when a signature
    # first runs, as <graph>_<region>_<n>.seam, for `seam plan` and `seam segment` to read offline.
    dump_regions: str = ""
    # False: a converter or seam failure raises instead of falling back to PyTorch (for tests).
    fallback: bool = True

    @staticmethod
    def from_options(options):
        """Settings from torch.compile's `options` dict; unknown names raise, naming the known ones."""
        options = dict(options or {})
        known = {f.name for f in dataclasses.fields(CompilationSettings)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"seam backend: unknown option(s) {unknown}; known: {sorted(known)}")
        if "torch_executed_ops" in options:
            options["torch_executed_ops"] = frozenset(str(o) for o in options["torch_executed_ops"])
        return CompilationSettings(**options)
