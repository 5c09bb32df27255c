#include "plan/chunk_programs.h"

#include "lower/kernel_params.h"
#include "lower/row_outputs.h"
#include "support/error.h"

namespace seam {
namespace {

void renumber_stores(kir::Block& block, const std::vector<int>& param) {
  for (kir::Stmt& s : block) {
    if (s.kind == kir::Stmt::Kind::Store) s.param = param.at(static_cast<size_t>(s.param));
    renumber_stores(s.then_block, param);
    renumber_stores(s.else_block, param);
  }
}

}  // namespace

kir::Kernel assemble_pointwise_kernel(const Fusion& fusion, const LoweringOptions& options,
                                      const std::vector<OutputSchedule>& schedules) {
  SEAM_ASSERT(schedules.size() == fusion.outputs().size(), "kernel ", options.kernel_name, ": ",
              schedules.size(), " output schedules for ", fusion.outputs().size(), " outputs");
  kir::Kernel kernel;
  kernel.name = options.kernel_name;
  kernel.keep_reused_loads = options.keep_reused_loads;
  kernel.streaming_stores = options.streaming_stores;
  const std::vector<int> input_param = declare_kernel_params(fusion, kernel);
  int counter = 0;  // names are unique across the kernel's programs
  for (size_t o = 0; o < fusion.outputs().size(); ++o)
    kernel.outputs.push_back(lower_output_program(fusion, static_cast<int>(o), schedules[o], options, kernel,
                                                  input_param, counter));
  return kernel;
}

void add_row_chunk_programs(const Fusion& fusion, const RowLoweringOptions& options, RowLowering& row) {
  if (row.chunked.empty()) return;
  std::vector<Value> values;
  for (int o : row.chunked) values.push_back(fusion.outputs()[static_cast<size_t>(o)].value);
  LoweringOptions lowering;
  static_cast<LaunchParams&>(lowering) = options;
  lowering.kernel_name = options.kernel_name;
  kir::Kernel part =
      assemble_pointwise_kernel(fusion_with_outputs(fusion, values), lowering, options.chunk_schedules);
  // Parameters: the same inputs; output j of the part is output chunked[j] of the kernel.
  const int inputs = static_cast<int>(fusion.inputs().size());
  std::vector<int> param(part.params.size());
  for (size_t p = 0; p < param.size(); ++p)
    param[p] = static_cast<int>(p) < inputs ? static_cast<int>(p)
                                            : inputs + row.chunked[p - static_cast<size_t>(inputs)];
  kir::Kernel& kernel = row.kernel;
  for (kir::OutputProgram& program : part.outputs) {
    program.param = param.at(static_cast<size_t>(program.param));
    renumber_stores(program.body, param);
    kernel.outputs.push_back(std::move(program));
  }
  kernel.index64 = kernel.index64 || part.index64;
}

}  // namespace seam
