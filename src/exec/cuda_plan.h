// A CUDA plan: the steps of one alignment class of the input addresses, their kernels loaded into the
// device's context (through the binary cache) with launch configurations computed once, the library
// steps' cuBLASLt products, and the workspaces the steps need per stream.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/cublas_matmul.h"
#include "exec/device_scratch.h"
#include "exec/executable.h"
#include "runtime/device.h"
#include "runtime/kernel_cache.h"
#include "runtime/module.h"

namespace seam {

// A compiled program loaded into the device's context, shared by the executables whose kernels print
// the same text (sizes of one class).
struct LoadedProgram {
  CompiledKernel compiled;
  Module module;
};

struct CudaPlan {
  std::vector<CompiledStep> steps;
  std::shared_ptr<const LoadedProgram> program;
  ModuleOrigin origin = ModuleOrigin::None;
  std::vector<std::optional<Kernel>> kernels;           // per step; none for library steps
  std::vector<LaunchConfig> configs;                    // per step, computed once
  std::vector<char> checks_indices;                     // per step: takes the index error record
  std::vector<std::unique_ptr<CublasMatmul>> products;  // per step; library steps only
  std::vector<std::vector<uint64_t>> constants;         // per step: its extents argument (may be empty)
  std::vector<std::string> symbols;                     // per step: its kernel in the module ("": library)
  std::vector<std::string> texts;                       // per generated step: its kernel's source
  std::unique_ptr<StreamWorkspaces> workspaces;         // per stream, for library steps and outer reductions
  std::vector<size_t> workspace_offsets;                // per step: its part of the kernels' workspace
  size_t scratch_bytes = 0;  // caller scratch a run of this plan takes (ScratchArena), set by the plan cache
};

// Compiles (or takes from the binary cache, or from a program this process loaded already) and loads the
// kernels of `steps`. `input_alignment`: bytes every input address is aligned to in this plan's
// alignment class.
CudaPlan build_plan(const SegmentedFusion& segmented, std::vector<CompiledStep> steps, const Device& device,
                    int input_alignment);

}  // namespace seam
