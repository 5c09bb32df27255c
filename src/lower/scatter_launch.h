// The layout of a scatter kernel (kir::Kernel::scatter; docs/CODEGEN.md, "Scatter"): the writes of one
// scatter into an output that already holds a copy of the data (the plan's copy step before it), written
// by codegen/scatter_kernel_printer.h.
//
// One work item per index element p (row-major over the index's extents): it reads index[p] (the index's
// strides) and, for a tensor source, src[p] (the source's strides), and writes the contiguous output at
// p's coordinates with the axis coordinate replaced by the position index[p] names (i < 0: i + extent).
// An index outside [-extent, extent) writes nothing and is recorded in the index error record, which the
// runtime turns into an error naming the op and the index (kir::checks_indices).
//
// The GPU takes the work items grid-stride, so of several writes to one element any one may land, as in
// torch's CUDA scatter; the host walks them in order, so the one latest in the index's row-major order
// lands, as on the interpreter (docs/IR.md, "Scatter").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/attr.h"
#include "ir/dtype.h"

namespace seam::kir {

struct ScatterLaunch {
  DType index_dtype = DType::Int64;
  DType src_dtype = DType::Float32;  // a scalar source is converted to output_dtype
  DType output_dtype = DType::Float32;
  bool scalar_src = false;
  // A scalar source that is a literal (a `const` the kernel computes, as every kernel duplicates them) of
  // dtype src_dtype: the kernel then takes no source parameter.
  std::optional<Number> literal;
  int64_t axis = 0;
  int64_t extent = 0;  // the output's extent along `axis`: the positions an index may name
  // Per axis: the index's extents (the work items' coordinates) and, in elements, the index's, the tensor
  // source's and the output's strides.
  std::vector<int64_t> extents, index_strides, src_strides, output_strides;
  int64_t elements = 0;  // index elements: the work items
  int block = 256;
  int64_t blocks = 1;
};

}  // namespace seam::kir
