#include "testing/host_lowering.h"

#include <gtest/gtest.h>

#include "codegen/kernel_printer.h"
#include "exec/host_compiler.h"
#include "exec/host_kernel_runner.h"
#include "interp/interpreter.h"
#include "plan/pointwise_plan.h"

namespace seam {

kir::Kernel lower_and_check_on_host(const Fusion& fusion, LoweringOptions options, Tolerance tolerance,
                                    uint64_t input_seed) {
  if (options.kernel_name.empty() || options.kernel_name == "seam_kernel") options.kernel_name = "k";
  kir::Kernel kernel = plan_and_lower_pointwise(fusion, options);
  auto module = compile_host_kernels({print_host_kernel(kernel)});
  std::vector<HostTensor> inputs = random_inputs(fusion, input_seed);
  std::vector<Type> types;
  for (const FusionOutput& o : fusion.outputs()) types.push_back(fusion.type(o.value));
  std::vector<HostTensor> actual = run_host_kernel(*module, kernel, inputs, types);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  for (size_t o = 0; o < actual.size(); ++o) {
    Comparison c = compare_tensors(actual[o], expected[o], tolerance);
    EXPECT_TRUE(c.ok) << "output " << o << ": " << c.message << "\n" << print_host_kernel(kernel);
  }
  return kernel;
}

}  // namespace seam
