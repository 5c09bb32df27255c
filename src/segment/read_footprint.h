// Which elements of a fusion input a kernel reads. A kernel that reads an input through a chain of view
// ops (reshape, permute, slice, broadcast, ...) touches only the elements of that view: RoPE's forward
// kernel reads the q and k parts of qkv, not the v part. The cost model charges an input's read as the
// union of the views a kernel reads of it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/fusion.h"
#include "schedule/view.h"

namespace seam {

// A view of a fusion input that a node reads: the input and where the viewed elements live in it.
// A scalar input has an empty layout.
struct InputView {
  Value input;
  StridedLayout layout;
};

// The views of fusion inputs that computing `node` reads, following the cheap ops duplicated into its
// kernel (`duplicated`, per node id) and stopping at the first value on each path that is a view of an
// input. A node that is itself a view of an input, through duplicated ops, reads its own elements.
// Values computed by kernels (owned nodes) are not followed: they are read whole.
std::vector<InputView> input_views_read(const Fusion& fusion, const std::vector<bool>& duplicated,
                                        int32_t node);

// Bytes of the union of `views` of `input`. Exact when every view is a box in one mixed-radix numbering of
// the input's elements (the radices being the views' strides, as for slices along axes that reshapes
// split off: the q, k and v parts of qkv); otherwise the smaller of the whole input and the sum of the
// views, which is never less than the union. Empty views read nothing, and views of the same elements
// count once, so the result does not depend on how often a view is listed.
int64_t union_bytes(const Fusion& fusion, Value input, std::span<const StridedLayout> views);

}  // namespace seam
