#include "lower/lower_scatter.h"

#include <algorithm>

#include "support/error.h"

namespace seam {

namespace {

// The position of `input` among the kernel fusion's inputs: its parameter's fusion_index.
int input_position(const Fusion& kf, Value input) {
  const auto& inputs = kf.inputs();
  const auto it = std::find(inputs.begin(), inputs.end(), input);
  SEAM_ASSERT(it != inputs.end(), "value %", input.id, " is not a kernel input");
  return static_cast<int>(it - inputs.begin());
}

}  // namespace

kir::Kernel lower_scatter(const Fusion& kf, const ScatterLoweringOptions& options) {
  const std::string& name = options.kernel_name;
  SEAM_CHECK(kf.outputs().size() == 1, "scatter kernel ", name, ": expected one output, got ",
             kf.outputs().size());
  const Value result = kf.outputs()[0].value;
  const Node& scatter = kf.node(result);
  SEAM_CHECK(scatter.category() == OpCategory::Scatter, "scatter kernel ", name, ": its output is a '",
             scatter.info().keyword, "', not a scatter");
  const Value index = scatter.operands.at(1), src = scatter.operands.at(2);
  const bool literal = kf.node(src).op == OpKind::Const;
  for (Value operand : {index, src})
    SEAM_CHECK(kf.node(operand).op == OpKind::Input || (operand == src && literal), "scatter kernel ", name,
               ": the index and the source must be kernel inputs or a literal source (the plan writes views "
               "out first)");
  const Type& index_type = kf.type(index);
  const Type& src_type = kf.type(src);

  kir::ScatterLaunch s;
  s.index_dtype = index_type.dtype;
  s.src_dtype = src_type.dtype;
  s.output_dtype = scatter.type.dtype;
  s.scalar_src = src_type.is_scalar;
  if (literal) s.literal = kf.node(src).attrs.get_number("value");
  s.axis = scatter.attrs.get_int("axis");
  s.extent = scatter.type.shape.at(static_cast<size_t>(s.axis));
  s.extents = index_type.shape;
  s.index_strides = kf.input_strides(index);
  if (!s.scalar_src) s.src_strides = kf.input_strides(src);
  s.output_strides = contiguous_strides(scatter.type.shape);
  s.elements = index_type.numel();
  s.block = std::clamp(options.block / 32 * 32, 32, 1024);
  s.blocks = std::clamp<int64_t>((s.elements + s.block - 1) / s.block, 1, int64_t{1} << 30);  // grid-stride

  kir::Kernel kernel;
  kernel.name = name;
  kernel.index64 = true;
  kernel.params.push_back({kir::Param::Kind::Input, "in0", s.index_dtype, input_position(kf, index)});
  if (!literal)
    kernel.params.push_back({s.scalar_src ? kir::Param::Kind::Scalar : kir::Param::Kind::Input, "in1",
                             s.src_dtype, input_position(kf, src)});
  kernel.params.push_back({kir::Param::Kind::Output, "out0", s.output_dtype, 0});
  kernel.scatter = std::move(s);
  return kernel;
}

}  // namespace seam
