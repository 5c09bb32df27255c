// The generated code of a plan as a module holds it. Each step's kernel is printed with its
// extents as arguments (codegen/kernel_constants.h) and named after its text, `seam_<kind>_<hash>`, not
// after the fusion: the sizes of one class, and the same kernel in another fusion or definition (the
// frontends make one per input signature), print the same text and share one compiled module
// (docs/CODEGEN.md, "Size classes"). A kernel two steps share is printed once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/kernel_printer.h"
#include "plan/plan.h"

namespace seam {

enum class KernelTarget { Cuda, Host };

CudaLaunchShape launch_shape(const LaunchParams& params);

// How a step's kernel prints its extents (codegen/kernel_constants.h): as kernel arguments (one compile
// per size class) unless the knob specialize_extents asks for literals; row kernels also with
// row_extents_as_arguments off (the benchmark sweep compares both).
inline ExtentSpelling extent_spelling(const PlannedStep& step) {
  const bool arguments = !step.params.specialize_extents &&
                         (!step.kernel.rows.has_value() || step.params.row_extents_as_arguments);
  return arguments ? ExtentSpelling::Arguments : ExtentSpelling::Literals;
}

struct KernelProgram {
  std::string source;                            // every distinct kernel once, in launch order
  std::vector<std::string> texts;                // per generated step: its kernel's text
  std::vector<std::string> symbols;              // per step: its kernel's name in the module ("": library)
  std::vector<std::vector<uint64_t>> constants;  // per step: its extents argument (KernelConstants::pack)
  std::vector<std::string> distinct_symbols() const;
};

KernelProgram print_kernel_program(const std::vector<PlannedStep>& steps, KernelTarget target);

// The CUDA source of a whole plan: every step's kernel, launched as its params say, in one translation
// unit (library steps have no generated code).
std::string print_cuda_program(const std::vector<PlannedStep>& steps);

}  // namespace seam
