"""Compiling a graph's regions ahead, on worker threads, when the graph is compiled: each region's input
signature is predicted from what the graph recorded for its inputs (dtype, shape, strides, device: the
strides eager gives, which seam's region outputs also have), the region is translated for it, and the
fusions are compiled at once (seam's compilations release the GIL and may run concurrently). A
prediction that misses costs a compile, never a wrong result: a region looks its signature up when it
runs and compiles what it has not seen. Graphs with symbolic sizes are compiled as they run."""

import concurrent.futures
import logging
import os
import time

import torch

from .node_meta import recorded_strides, tensor_info
from .runtime import STATS, SeamRegion

log = logging.getLogger("seam.torch_backend")


def _fake_mode(example_inputs):
    """The FakeTensorMode of the graph's example inputs (AOT autograd under Dynamo hands FakeTensors), or
    a new one (tensors with dtype, shape, strides and device, and no memory); None without FakeTensors."""
    try:
        from torch._guards import detect_fake_mode

        mode = detect_fake_mode(list(example_inputs or ()))
        if mode is not None:
            return mode
    except ImportError:
        pass
    try:
        from torch._subclasses.fake_tensor import FakeTensorMode

        return FakeTensorMode()
    except Exception:  # noqa: BLE001 (none, or one that needs arguments: no prediction on the GPU)
        return None


class _Probes:
    """Makes stand-in inputs: real, empty CPU tensors; CUDA ones as FakeTensors (no device memory)."""

    def __init__(self, example_inputs):
        self._example_inputs = example_inputs
        self._fake = None

    def tensor(self, shape, strides, dtype, device):
        if device.type == "cpu":
            return torch.empty_strided(shape, strides, dtype=dtype)
        if self._fake is None:
            self._fake = _fake_mode(self._example_inputs) or False
        if not self._fake:
            return None
        with self._fake:
            return torch.empty_strided(shape, strides, dtype=dtype, device=device)


def _recorded_device(node):
    value = node.meta.get("val")
    if isinstance(value, torch.Tensor) and value.device.type in ("cpu", "cuda"):
        return value.device
    return None


def predicted_inputs(region, probes, default_device):
    """Stand-ins for the inputs `region` will be called with, from its placeholders' recorded values, or
    None where one is not known (nothing recorded, a symbolic size, an integer input)."""
    out = []
    for node in region.graph_module.graph.nodes:
        if node.op != "placeholder":
            continue
        info, strides = tensor_info(node), recorded_strides(node)
        shape = info.static_shape() if info is not None else None
        if shape is None or strides is None:
            return None
        device = _recorded_device(node) or default_device
        if device is None:
            return None
        probe = probes.tensor(shape, strides, info.dtype, device)
        if probe is None:
            return None
        out.append(probe)
    return out


def _is_real(x):
    return type(x) is torch.Tensor or (isinstance(x, torch.Tensor) and type(x).__name__ not in
                                        ("FakeTensor", "FunctionalTensor"))


def record_missing_shapes(gm, example_inputs):
    """Records tensor_meta (dtype, shape, strides) on every node of an aten graph some tracers leave
    without (torch 1.13's make_fx: getitems, constants) by running it once on the example inputs, when
    they are real tensors (the random generators' states are restored after). Graphs from Dynamo record
    a value on every node; nothing runs for them."""
    nodes = [n for n in gm.graph.nodes if n.op not in ("output",)]
    if all("val" in n.meta or "tensor_meta" in n.meta for n in nodes):
        return
    if not example_inputs or not all(_is_real(x) or not isinstance(x, torch.Tensor) for x in example_inputs):
        return
    from torch.fx.passes.shape_prop import ShapeProp

    devices = sorted({x.device.index or 0 for x in example_inputs
                      if isinstance(x, torch.Tensor) and x.device.type == "cuda"})
    with torch.random.fork_rng(devices=devices), torch.no_grad():
        ShapeProp(gm).propagate(*example_inputs)


def _default_device(example_inputs):
    for x in example_inputs or ():
        if isinstance(x, torch.Tensor) and x.device.type in ("cpu", "cuda"):
            return x.device
    return None


def compile_regions_ahead(fused, example_inputs, settings):
    """Translates every region of `fused` for its predicted signature (in this thread: translation is
    Python) and compiles the distinct fusions on `settings.compile_threads` threads (0: one per core).
    Returns how many fusions were compiled."""
    started = time.perf_counter()
    probes, default_device = _Probes(example_inputs), _default_device(example_inputs)
    jobs, seen = [], set()
    for region in fused.modules():
        if not isinstance(region, SeamRegion):
            continue
        inputs = predicted_inputs(region, probes, default_device)
        if inputs is None:
            continue
        translation = region.prepare(inputs)
        if translation is None:
            continue
        key = (translation.fusion.text(), None if translation.tensor_positions else region.device)
        if key not in seen:  # identical regions give identical fusions: compiled once
            seen.add(key)
            jobs.append((region, translation))
    if not jobs:
        return 0
    threads = settings.compile_threads or os.cpu_count() or 1

    def compile_one(job):
        region, translation = job
        try:
            translation.compile(region.device)
            return True
        except Exception as e:  # the region compiles (or falls back) when it runs, as without this
            log.debug("seam: compiling %s ahead failed: %s: %s", region.region_name, type(e).__name__, e)
            return False

    if threads == 1 or len(jobs) == 1:
        done = sum(map(compile_one, jobs))
    else:
        with concurrent.futures.ThreadPoolExecutor(min(threads, len(jobs)), "seam-compile") as pool:
            done = sum(pool.map(compile_one, jobs))
    STATS["definitions_compiled_ahead"] += done
    log.debug("seam: %d of %d fusions compiled ahead on %d thread(s) in %.2f s", done, len(jobs),
              min(threads, len(jobs)), time.perf_counter() - started)
    return done
