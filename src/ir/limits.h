// The sizes a fusion may describe (docs/LIMITS.md). They are far above what one GPU holds, and low
// enough that no size arithmetic over a valid fusion can overflow int64: a tensor's bytes are at most
// 2^40 and a fusion has at most 2^20 values and outputs, so any sum of value bytes that counts each
// node, operand use or output a bounded number of times stays below 2^62. Builder::add enforces them
// on every type it builds (the parser and every pass build through it), verify() on any Fusion.
#pragma once

#include <cstdint>

#include "ir/type.h"

namespace seam {

struct SizeLimits {
  static constexpr int kMaxRank = 64;
  // Per tensor: the product of its extents, each counted as at least 1 (so an empty tensor bounds every
  // product of its other extents too), and that product times the dtype size.
  static constexpr int64_t kMaxElements = int64_t{1} << 40;
  static constexpr int64_t kMaxBytes = int64_t{1} << 40;  // 1 TiB, several times any GPU's memory
  // Per fusion: nodes plus outputs.
  static constexpr int64_t kMaxFusionSize = int64_t{1} << 20;
};

// Throws seam::Error naming the type when it breaks a per-tensor limit or has a negative extent.
void check_type_limits(const Type& type);
// Throws seam::Error when an input's strides (elements, >= 0) reach beyond SizeLimits::kMaxBytes of
// storage or a stride exceeds SizeLimits::kMaxElements.
void check_strides_limits(const Type& type, const Shape& strides);
// Throws seam::Error when a fusion of `nodes` nodes and `outputs` outputs passes kMaxFusionSize.
void check_fusion_size(int64_t nodes, int64_t outputs);

// The bytes of storage a tensor of this dtype, shape and strides reaches: 0 when it has no element,
// otherwise (1 + sum over axes of (extent - 1) * stride) * dtype size. Throws seam::Error on overflow.
int64_t strided_storage_bytes(DType dtype, const Shape& shape, const Shape& strides);

}  // namespace seam
