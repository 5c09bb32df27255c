// The indexing ops (index_select, gather, take_along_axis, select): which element of the index operand
// and which element of the data operand each output element reads (docs/IR.md, "Indexing"). One
// definition for the interpreter (integer coordinates) and the lowering (index expressions), so that
// both read the same positions.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/op.h"
#include "ir/type.h"

namespace seam {

inline bool is_indexing(OpKind op) {
  return op == OpKind::IndexSelect || op == OpKind::Gather || op == OpKind::TakeAlongAxis ||
         op == OpKind::Select;
}

// For output coordinates `at` of an indexing op over data of shape `data` and an index of shape `index`
// (empty for select's scalar index): `index_at`, the index operand's coordinates, and `data_at`, the data
// operand's coordinates with `zero` on `axis` (the caller puts the index value there). An axis of
// extent 1 that the output broadcasts (take_along_axis) reads coordinate `zero`.
template <typename I>
void indexing_coordinates(OpKind op, int64_t axis, const Shape& data, const Shape& index, const Shape& out,
                          const std::vector<I>& at, const I& zero, std::vector<I>& index_at,
                          std::vector<I>& data_at) {
  const size_t a = static_cast<size_t>(axis);
  index_at.clear();
  data_at.assign(data.size(), zero);
  switch (op) {
    case OpKind::IndexSelect:  // out = data's shape with axis `axis` replaced by the index's extent
      index_at.push_back(at[a]);
      for (size_t d = 0; d < data.size(); ++d)
        if (d != a) data_at[d] = at[d];
      return;
    case OpKind::Select:  // out = data's shape without axis `axis`; the index is a scalar or rank 0
      for (size_t d = 0; d < data.size(); ++d)
        if (d != a) data_at[d] = at[d < a ? d : d - 1];
      return;
    case OpKind::Gather:         // out = the index's shape, no larger than data's off `axis`
    case OpKind::TakeAlongAxis:  // out = data and index broadcast against each other off `axis`
      for (size_t d = 0; d < out.size(); ++d) {
        index_at.push_back(index[d] == 1 && out[d] != 1 ? zero : at[d]);
        if (d != a) data_at[d] = data[d] == 1 && out[d] != 1 ? zero : at[d];
      }
      return;
    default: return;
  }
}

}  // namespace seam
