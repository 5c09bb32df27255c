// Opaque ops: matmul (batch axes broadcast like NumPy) and linear (x @ w^T + bias). Products
// accumulate in double and round once to the dtype.
#include <algorithm>

#include "interp/eval_ops.h"
#include "support/error.h"
#include "support/parallel.h"

namespace seam {
namespace {

// The index into an operand's batch axes for an output batch index: right-aligned, extent-1 axes
// broadcast.
std::vector<int64_t> batch_index_of(const std::vector<int64_t>& out_batch, const Shape& operand_shape) {
  const size_t batch_rank = operand_shape.size() - 2;
  std::vector<int64_t> index(batch_rank);
  const size_t skip = out_batch.size() - batch_rank;
  for (size_t d = 0; d < batch_rank; ++d) index[d] = operand_shape[d] == 1 ? 0 : out_batch[d + skip];
  return index;
}

HostTensor eval_matmul(const Node& node, const HostTensor& a, const HostTensor& b, const Perturbation* nudge,
                       int32_t id) {
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const Shape& shape = out.shape();
  const int64_t k_extent = a.shape().back();
  const std::vector<double> a_values = a.to_doubles(), b_values = b.to_doubles();
  if (k_extent == 0) return out;  // empty sums: all zeros
  // The grain counts multiply-adds: a long k splits fewer outputs per thread.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / k_extent);
  parallel_for(
      out.numel(),
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          std::vector<int64_t> index = unravel_index(i, shape);
          const int64_t col = index.back();
          const int64_t row = index[index.size() - 2];
          const std::vector<int64_t> out_batch(index.begin(), index.end() - 2);
          std::vector<int64_t> a_index = batch_index_of(out_batch, a.shape());
          std::vector<int64_t> b_index = batch_index_of(out_batch, b.shape());
          a_index.insert(a_index.end(), {row, 0});
          b_index.insert(b_index.end(), {0, col});
          // Along k, a steps by 1 (its last axis) and b by n (its row length), both row-major.
          const size_t a_start = static_cast<size_t>(ravel_index(a_index, a.shape()));
          const size_t b_start = static_cast<size_t>(ravel_index(b_index, b.shape()));
          const size_t b_step = static_cast<size_t>(b.shape().back());
          double acc = 0.0;
          for (int64_t k = 0; k < k_extent; ++k)
            acc += a_values[a_start + static_cast<size_t>(k)] *
                   b_values[b_start + static_cast<size_t>(k) * b_step];
          out.set_double(i, nudge ? nudge->apply(id, i, acc) : acc);
        }
      },
      grain);
  return out;
}

HostTensor eval_linear(const Node& node, const HostTensor& x, const HostTensor& weight,
                       const HostTensor* bias, const Perturbation* nudge, int32_t id) {
  HostTensor out = HostTensor::zeros(node.type.dtype, node.type.shape);
  const int64_t in_features = weight.shape()[1];
  const int64_t out_features = weight.shape()[0];
  const std::vector<double> x_values = x.to_doubles(), w_values = weight.to_doubles();
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(in_features, 1));
  parallel_for(
      out.numel(),
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          const int64_t row = i / out_features;  // the row of x flattened to [rows, in_features]
          const int64_t feature = i % out_features;
          double acc = 0.0;
          for (int64_t k = 0; k < in_features; ++k)
            acc += x_values[static_cast<size_t>(row * in_features + k)] *
                   w_values[static_cast<size_t>(feature * in_features + k)];
          if (bias) acc += bias->get_double(feature);
          out.set_double(i, nudge ? nudge->apply(id, i, acc) : acc);
        }
      },
      grain);
  return out;
}

}  // namespace

HostTensor eval_opaque(const Node& node, const Values& values, const Perturbation* nudge, int32_t id) {
  auto operand = [&](size_t i) -> const HostTensor& {
    return values.at(static_cast<size_t>(node.operands.at(i).id));
  };
  switch (node.op) {
    case OpKind::Matmul: return eval_matmul(node, operand(0), operand(1), nudge, id);
    case OpKind::Linear:
      return eval_linear(node, operand(0), operand(1), node.operands.size() > 2 ? &operand(2) : nullptr,
                         nudge, id);
    default: SEAM_ASSERT(false, "eval_opaque of op ", op_name(node.op));
  }
  return {};
}

}  // namespace seam
