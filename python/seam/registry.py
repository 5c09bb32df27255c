"""The registry of fd.ops: every op seam lowers, gathered from the modules that define them (listed
here), and the ops of nvFuser's API that seam refuses, with the reason given to the user."""

from . import ops, ops_batch_norm, ops_embedding, ops_random

_TABLES = (ops.table, ops_random.table, ops_batch_norm.table, ops_embedding.table)


def _gather(tables):
    specs = {}
    for table in tables:
        for name, spec in table.specs.items():
            if name in specs:
                raise ValueError(f"fd.ops.{name} is defined by two op modules")
            specs[name] = spec
    return specs


OPS = _gather(_TABLES)

_NO_IR = "seam's IR has no op for it yet"
NOT_IMPLEMENTED = {
    **{n: _NO_IR for n in "argsort topk".split()},
    "index_put_accumulate": "seam's IR has scatter but no accumulating scatter (index_put) yet",
    **{n: "attention and scaled/grouped products are not part of seam" for n in (
        "sdpfa_fwd sdpfa_bwd grouped_mm scaled_mm cutlass_nvfp4_grouped_mm").split()},
    **{n: "seam has no complex or fp4 dtypes" for n in "real imag complex nv_block_quantize".split()},
}
assert not set(OPS) & set(NOT_IMPLEMENTED), "an op is both lowered and refused"
