// Pointwise ops and cast. The math is the op table's expressions, expanded here into one pair of
// functions per op, so that a pointwise op added to the table needs no edit in this file.
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "interp/eval_ops.h"
#include "ir/infer.h"
#include "ir/scalar_math.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {
namespace {

struct PointwiseMath {
  double (*on_double)(double a, double b);  // floating compute dtypes
  int64_t (*on_int)(int64_t a, int64_t b);  // integer and bool compute dtypes
};

// Unary expressions ignore b; non-pointwise rows have expressions 0 and are never called.
constexpr std::array<PointwiseMath, kNumOpKinds> kPointwiseMath = {{
#define SEAM_OP(name, keyword, category, min_arity, max_arity, attrs, rule, float_expr, int_expr) \
  PointwiseMath{[](double a, double b) -> double { return static_cast<double>(float_expr); },     \
                [](int64_t a, int64_t b) -> int64_t { return static_cast<int64_t>(int_expr); }},
#include "ir/op_table.def"
#undef SEAM_OP
}};

// Element i of an operand: scalars (and rank-0 operands mixed with scalars) broadcast.
Scalar operand_element(const HostTensor& operand, int64_t i) {
  return operand.get(operand.numel() == 1 ? 0 : i);
}

// The ops whose result depends on the width of the compute type, which the table's expressions (on
// double and int64_t) cannot see: f32's next float, the 32-bit logical shift and gcd (whose most
// negative value differs). Empty for every other op and compute type.
std::optional<Scalar> width_dependent(OpKind op, DType compute, const Scalar& a, const Scalar& b) {
  const bool f32_math = compute == DType::Float32 || compute == DType::Float16 || compute == DType::BFloat16;
  if (f32_math && op == OpKind::Nextafter)
    return Scalar::of_real(std::nextafter(static_cast<float>(a.real), static_cast<float>(b.real)));
  if (compute != DType::Int32) return std::nullopt;
  const auto x = static_cast<int32_t>(a.integer), y = static_cast<int32_t>(b.integer);
  if (op == OpKind::LogicalShiftRight) return Scalar::of_int(math::logical_shift_right(x, y));
  if (op == OpKind::Gcd) return Scalar::of_int(math::gcd(x, y));
  return std::nullopt;
}

// Rounds a floating result the way a GPU computes it: half types compute in f32.
double round_compute_result(DType compute, double value) {
  return compute == DType::Float64 ? value : round_to_dtype(DType::Float32, value);
}

}  // namespace

HostTensor eval_pointwise(const Fusion& fusion, const Node& node, const Values& values,
                          const Perturbation* nudge, int32_t id) {
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  std::vector<const HostTensor*> operands;
  std::vector<Type> operand_types;
  for (Value v : node.operands) {
    operands.push_back(&values.at(static_cast<size_t>(v.id)));
    operand_types.push_back(fusion.type(v));
  }

  if (node.op == OpKind::Cast) {
    parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out.set(i, operands[0]->get(i));
    });
    return out;
  }
  if (node.op == OpKind::Where) {
    parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const bool condition = operand_element(*operands[0], i).integer != 0;
        // Both branches convert to the result dtype (the compute dtype) like a cast.
        out.set(i, operand_element(*operands[condition ? 1 : 2], i));
      }
    });
    return out;
  }

  const DType compute = pointwise_compute_dtype(node.op, operand_types);
  // Half types compute in f32. A tensor operand converts to the half type first (PyTorch casts tensors
  // to the common dtype); a scalar, a Python number, converts straight to f32, the opmath type (as in
  // nvFuser's kernels: `x - 0.1` never rounds 0.1 to bf16 first). docs/IR.md, "Compute dtype".
  const bool half = compute == DType::BFloat16 || compute == DType::Float16;
  std::vector<DType> operand_dtypes;
  for (const Type& t : operand_types)
    operand_dtypes.push_back(half && t.is_scalar ? DType::Float32 : compute);
  const PointwiseMath& math = kPointwiseMath[static_cast<size_t>(node.op)];
  const bool floating = is_floating(compute);
  if (!is_floating(node.type.dtype) || !has_inexact_floating_result(node.op)) nudge = nullptr;
  parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      Scalar a = convert_scalar(operand_element(*operands[0], i), operand_dtypes[0]);
      Scalar b = operands.size() > 1 ? convert_scalar(operand_element(*operands[1], i), operand_dtypes[1])
                                     : Scalar{};
      if (std::optional<Scalar> special = width_dependent(node.op, compute, a, b))
        out.set(i, *special);
      else if (floating) {
        const double exact = math.on_double(a.real, b.real);
        out.set(i,
                Scalar::of_real(round_compute_result(compute, nudge ? nudge->apply(id, i, exact) : exact)));
      } else
        out.set(i, Scalar::of_int(math.on_int(a.integer, b.integer)));
    }
  });
  return out;
}

}  // namespace seam
