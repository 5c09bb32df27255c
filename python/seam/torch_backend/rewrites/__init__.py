"""Rewrites of the graph a backend receives (Dynamo's, before AOT autograd), each a function of the
GraphModule that changes it in place and says how many places it changed. apply_graph_rewrites runs
those the settings ask for; add a rewrite here, with its option in settings.py."""

import logging

from .attention import rewrite_causal_attention
from .cross_entropy import rewrite_cross_entropy
from .linear_cross_entropy import rewrite_linear_cross_entropy

log = logging.getLogger("seam.torch_backend")


def apply_graph_rewrites(gm, settings):
    """gm rewritten in place (and recompiled where anything changed); returns the counts per rewrite."""
    counts = {}
    try:
        if settings.causal_attention:
            counts["causal_attention"] = rewrite_causal_attention(gm, unrepeated_kv=settings.unrepeated_kv)
        if settings.linear_cross_entropy:
            counts["linear_cross_entropy"] = rewrite_linear_cross_entropy(gm)
        if settings.cross_entropy_from_logsumexp:  # the losses the fused op did not take
            counts["cross_entropy_from_logsumexp"] = rewrite_cross_entropy(gm)
    except Exception as e:
        if not settings.fallback:
            raise
        log.warning("seam: a graph rewrite failed; the graph runs as written: %s: %s", type(e).__name__, e)
    if any(counts.values()):
        gm.graph.lint()
        gm.recompile()
        log.debug("seam: graph rewrites: %s", counts)
    return counts
