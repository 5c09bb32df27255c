// The dispatcher: binds and checks inputs, evaluates nodes in order by op category, returns outputs.
#include "interp/interpreter.h"

#include <random>

#include "interp/eval_ops.h"
#include "ir/limits.h"
#include "ir/verify.h"
#include "support/checked_math.h"
#include "support/error.h"
#include "tensor/host_memory.h"

namespace seam {
namespace {

std::string describe_input(const Fusion& fusion, size_t index) {
  const Node& node = fusion.node(fusion.inputs()[index]);
  std::string label = "input " + std::to_string(index);
  if (const AttrValue* name = node.attrs.find("name")) label += " ('" + std::get<std::string>(*name) + "')";
  return label;
}

// Checks a given input against its declaration and returns a contiguous copy.
HostTensor bind_input(const Fusion& fusion, size_t index, const HostTensor& given) {
  const Value v = fusion.inputs()[index];
  const Type& declared = fusion.type(v);
  const std::string label = describe_input(fusion, index);
  const std::string expected = Type::tensor(declared.dtype, declared.shape).to_string();
  SEAM_CHECK(given.dtype() == declared.dtype && given.shape() == declared.shape, label, ": expected ",
             expected, ", got ", given.type_string());
  const Shape strides = fusion.input_strides(v);
  SEAM_CHECK(given.strides() == strides, label, ": expected strides ", shape_to_string(strides), " for ",
             expected, ", got strides ", shape_to_string(given.strides()));
  SEAM_CHECK(static_cast<int64_t>(given.storage().size()) >= given.required_storage_bytes(), label, ": ",
             given.type_string(), " has ", given.storage().size(), " bytes of storage, its strides need ",
             given.required_storage_bytes());
  return given.contiguous();
}

// The host memory a run takes: the interpreter keeps every value until the end, and matmul and linear
// copy their operands as doubles. Checked before anything is allocated, so that a fusion too large for
// this machine fails at once with a message instead of part way through (or in the OOM killer).
void check_interpreter_memory(const Fusion& fusion) {
  int64_t total = 0;
  int32_t largest = 0;
  auto add = [&](int64_t bytes) { total = checked_add(total, bytes).value_or(INT64_MAX); };
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& node = fusion.node(Value{id});
    add(node.type.bytes());
    if (node.type.bytes() > fusion.type(Value{largest}).bytes()) largest = id;
    if (node.category() == OpCategory::Opaque)
      for (Value operand : node.operands) add(fusion.type(operand).numel() * int64_t{sizeof(double)});
  }
  check_host_memory(total, detail::concat("interpreting fusion '", fusion.name(), "' (its largest value is %",
                                          largest, " : ", fusion.type(Value{largest}).to_string(), ")"));
}

std::vector<HostTensor> evaluate(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                                 const Perturbation* nudge);

}  // namespace

void unravel_index_into(int64_t linear_index, const Shape& shape, std::vector<int64_t>& index) {
  index.resize(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = linear_index % shape[d];
    linear_index /= shape[d];
  }
}

std::vector<int64_t> unravel_index(int64_t linear_index, const Shape& shape) {
  std::vector<int64_t> index;
  unravel_index_into(linear_index, shape, index);
  return index;
}

int64_t ravel_index(const std::vector<int64_t>& index, const Shape& shape) {
  SEAM_ASSERT(index.size() == shape.size(), "index rank ", index.size(), " vs shape ",
              shape_to_string(shape));
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    SEAM_ASSERT(index[d] >= 0 && index[d] < shape[d], "index out of range for ", shape_to_string(shape));
    linear = linear * shape[d] + index[d];
  }
  return linear;
}

std::vector<HostTensor> interpret(const Fusion& fusion, const std::vector<HostTensor>& inputs) {
  return evaluate(fusion, inputs, nullptr);
}

std::vector<HostTensor> interpret_perturbed(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                                            const Perturbation& nudge) {
  return evaluate(fusion, inputs, &nudge);
}

namespace {

std::vector<HostTensor> evaluate(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                                 const Perturbation* nudge) {
  verify(fusion);  // a Fusion built by hand could otherwise index out of range below
  SEAM_CHECK(inputs.size() == fusion.inputs().size(), "fusion '", fusion.name(), "' takes ",
             fusion.inputs().size(), " input(s), got ", inputs.size());
  check_interpreter_memory(fusion);
  Values values(static_cast<size_t>(fusion.num_nodes()));
  size_t next_input = 0;
  for (int32_t id = 0; id < fusion.num_nodes(); ++id) {
    const Node& node = fusion.node(Value{id});
    HostTensor& value = values[static_cast<size_t>(id)];
    switch (node.category()) {
      case OpCategory::Leaf:
        if (node.op == OpKind::Input) {
          value = bind_input(fusion, next_input, inputs[next_input]);
          ++next_input;
        } else {
          value = eval_leaf(node);
        }
        break;
      case OpCategory::Unary:
      case OpCategory::Binary:
      case OpCategory::Ternary:
      case OpCategory::Cast: value = eval_pointwise(fusion, node, values, nudge, id); break;
      case OpCategory::Movement: value = eval_movement(node, values); break;
      case OpCategory::Reduction: value = eval_reduction(node, values, nudge, id); break;
      case OpCategory::Random: value = eval_random(node, values); break;
      case OpCategory::Indexing: value = eval_indexing(node, id, values); break;
      case OpCategory::Opaque: value = eval_opaque(node, values, nudge, id); break;
      case OpCategory::Scan: value = eval_scan(node, values, nudge, id); break;
      case OpCategory::Scatter: value = eval_scatter(node, id, values); break;
    }
    SEAM_ASSERT(value.dtype() == node.type.dtype && value.shape() == node.type.shape, "value %", id,
                " evaluated to ", value.type_string(), ", declared ", node.type.to_string());
  }
  std::vector<HostTensor> outputs;
  for (const FusionOutput& output : fusion.outputs())
    outputs.push_back(values[static_cast<size_t>(output.value.id)]);
  return outputs;
}

}  // namespace

std::vector<HostTensor> random_inputs(const Fusion& fusion, uint64_t seed) {
  check_inputs_fit_host_memory(fusion);
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> inputs;
  for (Value v : fusion.inputs()) {
    const Type& t = fusion.type(v);
    HostTensor x = HostTensor::zeros_strided(t.dtype, t.shape, fusion.input_strides(v));
    x.fill_random(rng);
    inputs.push_back(std::move(x));
  }
  return inputs;
}

}  // namespace seam
