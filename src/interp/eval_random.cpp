// Random ops: uniform and normal (docs/RANDOM.md). Element i is computed from (seed, offset, i) by the
// generator in support/philox.h, which the generated kernels share, so the interpreter's values are the
// host backend's and the GPU's bit for bit.
#include "interp/eval_ops.h"
#include "support/error.h"
#include "support/parallel.h"
#include "support/philox.h"

namespace seam {

HostTensor eval_random(const Node& node, const Values& values) {
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  auto operand = [&](size_t i) { return values.at(static_cast<size_t>(node.operands[i].id)).get(0); };
  // Converted like a cast to `dtype` (what the generated code does with its scalar parameters).
  auto operand_as = [&](size_t i, DType dtype) { return convert_scalar(operand(i), dtype).real; };
  // i32 seeds and offsets sign-extend to 64 bits, then count as unsigned.
  const auto seed = static_cast<uint64_t>(operand(2).integer);
  const auto offset = static_cast<uint64_t>(operand(3).integer);
  const DType dtype = node.type.dtype;
  if (node.op == OpKind::Uniform) {
    const double lo = operand_as(0, dtype), hi = operand_as(1, dtype);  // the bounds in the result dtype
    parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const rng::Words4 r = rng::element_words(seed, offset, static_cast<uint64_t>(i));
        // Drawn in f32 (f64 for f64), rounded to the dtype; a value rounded up to hi becomes lo.
        double v =
            dtype == DType::Float64
                ? rng::uniform(r, lo, hi)
                : round_to_dtype(dtype, rng::uniform(r, static_cast<float>(lo), static_cast<float>(hi)));
        out.set_double(i, v == hi ? lo : v);
      }
    });
    return out;
  }
  SEAM_ASSERT(node.op == OpKind::Normal, "eval_random of op ", op_name(node.op));
  const double mean = operand_as(0, DType::Float64), std = operand_as(1, DType::Float64);
  parallel_for(out.numel(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      out.set_double(i, rng::normal(rng::element_words(seed, offset, static_cast<uint64_t>(i)), mean, std));
  });
  return out;
}

}  // namespace seam
