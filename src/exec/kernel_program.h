// The generated code of an executable as its module holds it. Each step's kernel is printed with its
// extents as arguments (codegen/kernel_constants.h) and named after its text, `seam_<kind>_<hash>`, not
// after the fusion: the sizes of one class, and the same kernel in another fusion or definition (the
// frontends make one per input signature), print the same text and share one compiled module
// (docs/CODEGEN.md, "Size classes"). A kernel two steps share is printed once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/kernel_printer.h"
#include "exec/executable.h"

namespace seam {

enum class KernelTarget { Cuda, Host };

CudaLaunchShape launch_shape(const LaunchParams& params);

struct KernelProgram {
  std::string source;                            // every distinct kernel once, in launch order
  std::vector<std::string> texts;                // per generated step: its kernel's text
  std::vector<std::string> symbols;              // per step: its kernel's name in the module ("": library)
  std::vector<std::vector<uint64_t>> constants;  // per step: its extents argument (KernelConstants::pack)
  std::vector<std::string> distinct_symbols() const;
};

KernelProgram print_kernel_program(const std::vector<CompiledStep>& steps, KernelTarget target);

}  // namespace seam
