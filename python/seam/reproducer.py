"""The reproducer: a definition printed as nvFuser prints it (records as calls, a function taking the
FusionDefinition, a script with its inputs), and the dumps NVFUSER_DUMP asks for."""

import os
import sys

import torch

from .records import format_value


def input_text(x):
    if isinstance(x, torch.Tensor) and x.layout != torch.strided:
        return f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')  # was {x.layout}"
    if isinstance(x, torch.Tensor):
        if x.is_contiguous() or x.numel() == 0:
            return (f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')")
        return (f"torch.testing.make_tensor(({x.untyped_storage().nbytes() // x.element_size()},), "
                f"dtype={x.dtype}, device='{x.device}').as_strided({tuple(x.shape)}, {tuple(x.stride())})"
                if hasattr(x, "untyped_storage") else
                f"torch.testing.make_tensor({tuple(x.shape)}, dtype={x.dtype}, device='{x.device}')")
    return format_value(x)


def dump(fd, spec):
    """NVFUSER_DUMP (or SEAM_PYTHON_DUMP) = comma-separated python_definition, fusion_ir,
    scheduled_fusion_ir, segmented_fusion, cuda_kernel: printed when a specialization is compiled, and
    kept for debug_output() when execute(capture_debug_output=True) compiled it."""
    wanted = set((os.environ.get("SEAM_PYTHON_DUMP") or os.environ.get("NVFUSER_DUMP") or "").split(","))
    if not wanted - {""}:
        return
    parts = []
    if "python_definition" in wanted:
        parts.append(fd._script())
    if "fusion_ir" in wanted:
        parts.append(spec.fusion.text())
    if spec.output_types:
        exe = spec.executable()
        if "scheduled_fusion_ir" in wanted:
            parts.append(exe.optimized_fusion())
        if "segmented_fusion" in wanted:
            parts.append(exe.segmentation())
        if "cuda_kernel" in wanted:
            parts.append(exe.cuda_source())
    for text in parts:
        print(text, file=sys.stderr)
    if fd._capturing is not None:
        fd._capturing.extend(parts)
