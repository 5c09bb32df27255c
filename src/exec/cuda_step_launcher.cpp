#include "exec/cuda_step_launcher.h"

#include <algorithm>
#include <vector>

#include "exec/index_error.h"
#include "exec/step_observer.h"
#include "runtime/cuda_driver.h"

namespace seam {

namespace {

constexpr size_t kIndexErrorBytes = kir::kIndexErrorWords * sizeof(int64_t);

// One enqueue of a plan: where its memory comes from (seam's allocator, or the caller's scratch) and
// what its steps share (the workspaces, the index error record).
class PlanLaunch {
 public:
  PlanLaunch(const CudaPlan& plan, const Fusion& fusion, bool poison_outputs, Bindings& bindings,
             CUstream stream, ScratchArena* arena)
      : plan_(plan),
        fusion_(fusion),
        poison_(poison_outputs),
        bindings_(bindings),
        stream_(stream),
        arena_(arena) {}

  IndexRecord run() {
    take_workspaces();
    StepObserver* observer = step_observer();
    for (size_t s = 0; s < plan_.steps.size(); ++s) {
      const CompiledStep& step = plan_.steps[s];
      if (observer) observer->before_step(s, step, stream_);
      const bool launched = step.library ? enqueue_product(s) : launch_kernel(s);
      if (observer) observer->after_step(s, step, stream_, launched);
    }
    return index_error_;
  }

 private:
  void take_workspaces() {
    const StreamWorkspaces& workspaces = *plan_.workspaces;
    if (arena_) {
      if (workspaces.library_bytes() > 0) library_workspace_ = arena_->take(workspaces.library_bytes());
      if (workspaces.kernel_bytes() > 0) {
        kernel_workspace_ = arena_->take(workspaces.kernel_bytes());
        check_cuda(driver().memset_d8_async(kernel_workspace_, 0, workspaces.kernel_bytes(), stream_),
                   "cuMemsetD8Async", "clearing the kernels' workspace");
      }
    } else if (workspaces.needed()) {
      const StreamWorkspace& workspace = plan_.workspaces->on(stream_);
      library_workspace_ = workspace.library.get();
      kernel_workspace_ = workspace.kernels.get();
    }
  }

  // A step output's address: the caller's buffer when it is bound already (run_into), else a buffer of
  // seam's for this run or a piece of the caller's scratch; poisoned when asked (`poison`: the pattern).
  DevicePtr output(Value v, unsigned char poison) {
    const Type& t = fusion_.type(v);
    if (!bindings_.is_bound(v)) {
      const size_t bytes = static_cast<size_t>(std::max<int64_t>(t.bytes(), 1));
      if (arena_)
        bindings_.bind(v, arena_->take(bytes));
      else
        bindings_.own(v, std::make_shared<DeviceBuffer>(device_allocator(), bytes, stream_));
    }
    const DevicePtr out = bindings_.address(v);
    if (poison_ && t.bytes() > 0)
      check_cuda(driver().memset_d8_async(out, poison, static_cast<size_t>(t.bytes()), stream_),
                 "cuMemsetD8Async", "poisoning an output");
    return out;
  }

  // The record the kernels that check indices share, zeroed on the stream before the first of them.
  DevicePtr index_error_address() {
    if (!index_error_.address) {
      if (arena_) {
        index_error_.address = arena_->take(kIndexErrorBytes);
      } else {
        index_error_.owner = std::make_shared<DeviceBuffer>(device_allocator(), kIndexErrorBytes, stream_);
        index_error_.address = index_error_.owner->get();
      }
      check_cuda(driver().memset_d8_async(index_error_.address, 0, kIndexErrorBytes, stream_),
                 "cuMemsetD8Async", "clearing the index error record");
    }
    return index_error_.address;
  }

  // A generated step: its arguments in parameter order, then its launch (none for an empty grid).
  bool launch_kernel(size_t s) {
    const CompiledStep& step = plan_.steps[s];
    std::vector<DevicePtr> pointers;
    std::vector<void*> args;
    pointers.reserve(step.kernel.params.size() + 2);  // args point into it: no reallocation
    for (const kir::Param& p : step.kernel.params) {
      const size_t i = static_cast<size_t>(p.fusion_index);
      if (p.kind == kir::Param::Kind::Output) {
        const Value v = step.kernel_fusion.outputs[i];
        // A scatter kernel writes into its data's copy, which the step before wrote there (plan/plan.h).
        pointers.push_back(kir::updates_output_in_place(step.kernel)
                               ? bindings_.address(v)
                               : output(v, fusion_.type(v).dtype == DType::Bool ? 0x01 : 0x7f));
      } else {  // inputs and scalars: both are device memory
        pointers.push_back(bindings_.address(step.kernel_fusion.inputs[i]));
      }
      args.push_back(&pointers.back());
    }
    if (plan_.checks_indices[s]) {  // the last parameter (kernel_ir.h, kIndexErrorWords)
      pointers.push_back(index_error_address());
      args.push_back(&pointers.back());
    }
    if (step.workspace_bytes > 0) {  // after it: the workspace (kernel_ir.h, OuterWorkspace)
      pointers.push_back(kernel_workspace_ + static_cast<DevicePtr>(plan_.workspace_offsets[s]));
      args.push_back(&pointers.back());
    }
    // Last: the extents, a struct passed by value (constants_argument_slot).
    if (!plan_.constants[s].empty()) args.push_back(const_cast<uint64_t*>(plan_.constants[s].data()));
    const bool launched = step.kernel.total_chunks() != 0;
    if (launched) {
      LaunchConfig config = plan_.configs[s];
      config.stream = stream_;
      launch(const_cast<Kernel&>(*plan_.kernels[s]), config, args);
    }
    return launched;
  }

  // A library step: its one output bound or allocated like a kernel's, then the library call.
  bool enqueue_product(size_t s) {
    const CompiledStep& step = plan_.steps[s];
    std::vector<DevicePtr> inputs;
    for (Value v : step.kernel_fusion.inputs) inputs.push_back(bindings_.address(v));
    const DevicePtr out = output(step.kernel_fusion.outputs.at(0), 0x7f);
    plan_.products[s]->enqueue(inputs, out, library_workspace_, stream_);
    return true;
  }

  const CudaPlan& plan_;
  const Fusion& fusion_;
  const bool poison_;
  Bindings& bindings_;
  const CUstream stream_;
  ScratchArena* const arena_;
  DevicePtr library_workspace_ = 0, kernel_workspace_ = 0;
  IndexRecord index_error_;
};

}  // namespace

IndexRecord enqueue_steps(const CudaPlan& plan, const Fusion& fusion, bool poison_outputs, Bindings& bindings,
                          CUstream stream, ScratchArena* arena) {
  return PlanLaunch(plan, fusion, poison_outputs, bindings, stream, arena).run();
}

void check_index_error(const IndexRecord& index_error, const std::string& fusion_name) {
  if (!index_error.address) return;
  int64_t record[kir::kIndexErrorWords] = {};
  check_cuda(driver().memcpy_dtoh(record, index_error.address, sizeof record), "cuMemcpyDtoH",
             "reading the index error record");
  throw_if_index_error(record, "fusion '" + fusion_name + "'");
}

}  // namespace seam
