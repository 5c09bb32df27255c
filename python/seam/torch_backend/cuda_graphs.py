"""mode="reduce-overhead": the forward and backward graphs seam compiled, captured into CUDA graphs and
replayed by torch's CUDA graph trees (the same machinery, and the same reasons to skip a graph, as torch's
own "cudagraphs" backend and Inductor's reduce-overhead mode). seam's regions are capture-safe: a run on a
stream being captured allocates nothing of seam's (intermediates live in memory torch's allocator gives
the graph) and does not synchronize (runner.py, and Executable::run_into's scratch)."""

import functools
import logging

log = logging.getLogger("seam.torch_backend")


def cuda_graph_compilers(compile_graph, dynamo_inputs):
    """(fw_compiler, bw_compiler, inference_compiler) for AOT autograd: each compiles with
    `compile_graph(gm, example_inputs)` (a boxed callable) and wraps the result in torch's CUDA graph
    trees, unless torch says the graph cannot be captured (CPU tensors, input mutation, incompatible ops),
    where it runs as compiled. None when this torch has no CUDA graph trees."""
    try:
        from torch._dynamo.backends.cudagraphs import (check_for_skip, find_input_mutations, get_device_index,
                                                       get_stack_traces)
        from torch._inductor.cudagraph_trees import cudagraphify_impl, get_manager
        from torch._inductor.cudagraph_utils import (BoxedDeviceIndex, get_placeholder_info,
                                                     log_cudagraph_skip_and_bump_counter)
        from torch._inductor.utils import BoxedBool, count_tangents, num_fw_fixed_arguments
    except ImportError as e:
        log.warning("seam: mode='reduce-overhead' needs torch's CUDA graph trees (%s); compiling without", e)
        return None

    do_cudagraphs = BoxedBool(True)
    device_index = BoxedDeviceIndex(None)

    def capture(gm, example_inputs, fixed, is_backward):
        # Everything torch's checks read comes from the aten graph before seam partitions it in place.
        skip = check_for_skip(gm, fixed)
        if skip:
            return None, skip
        info = dict(device_index=get_device_index(gm), stack_traces=get_stack_traces(gm),
                    placeholders=get_placeholder_info(gm.graph), mutated_input_idxs=find_input_mutations(gm.graph))
        compiled = compile_graph(gm, example_inputs)
        out = cudagraphify_impl(compiled, example_inputs, range(fixed), device_index=info["device_index"],
                                is_backward=is_backward, is_inference=False, stack_traces=info["stack_traces"],
                                placeholders=info["placeholders"], mutated_input_idxs=info["mutated_input_idxs"])
        out._boxed_call = True
        return out, None

    def forward(gm, example_inputs, is_inference=False):
        fixed = num_fw_fixed_arguments(len(dynamo_inputs), len(example_inputs))
        index = _device_index(gm)
        out, skip = capture(gm, example_inputs, fixed, is_backward=False)
        if out is None:
            BoxedBool.disable(do_cudagraphs)
            log_cudagraph_skip_and_bump_counter(f"skipping cudagraphs due to {skip}")
            return compile_graph(gm, example_inputs)
        device_index.set(index)
        return out

    def backward(gm, example_inputs):
        if not do_cudagraphs:
            return compile_graph(gm, example_inputs)
        out, skip = capture(gm, example_inputs, count_tangents(gm), is_backward=True)
        if out is not None:
            return out
        log_cudagraph_skip_and_bump_counter(f"skipping cudagraphs due to {skip}")
        # the forward ran in a CUDA graph tree: tell its manager the backward runs outside it
        manager = get_manager(device_index.value if device_index.value is not None else 0,
                              create_if_none_exists=False)
        compiled = compile_graph(gm, example_inputs)

        def run(inputs):
            if manager is not None:
                manager.set_to_running_backward()
            return compiled(inputs)

        run._boxed_call = True
        return run

    return forward, backward, functools.partial(forward, is_inference=True)


def _device_index(gm):
    for node in gm.graph.nodes:
        value = node.meta.get("val")
        if getattr(value, "device", None) is not None and value.device.type == "cuda":
            return value.device.index
    return None
