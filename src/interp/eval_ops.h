// The interpreter's evaluation of one node, one function per op category (one file each). Each takes
// the values computed so far (indexed by Value::id, all contiguous) and returns the node's value as a
// contiguous HostTensor of the node's type. interpreter.cpp dispatches to them.
#pragma once

#include <vector>

#include "interp/perturbation.h"
#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam {

using Values = std::vector<HostTensor>;

HostTensor eval_leaf(const Node& node);  // const, full, iota (inputs are bound by the dispatcher)
// `nudge` (null for none) moves the inexact floating results of node `id` (interp/perturbation.h).
HostTensor eval_pointwise(const Fusion& fusion, const Node& node, const Values& values,
                          const Perturbation* nudge = nullptr, int32_t id = -1);
HostTensor eval_movement(const Node& node, const Values& values);
HostTensor eval_reduction(const Node& node, const Values& values, const Perturbation* nudge = nullptr,
                          int32_t id = -1);
HostTensor eval_random(const Node& node, const Values& values);  // uniform, normal (docs/RANDOM.md)
// `id`: the node's value id, named in the error an out-of-range index raises.
HostTensor eval_indexing(const Node& node, int32_t id, const Values& values);
HostTensor eval_opaque(const Node& node, const Values& values, const Perturbation* nudge = nullptr,
                       int32_t id = -1);
// cumsum, cumprod, cummin, cummax along its axis, each line folded in order (docs/IR.md, "Scans").
HostTensor eval_scan(const Node& node, const Values& values, const Perturbation* nudge = nullptr,
                     int32_t id = -1);

// scatter: a copy of operand 0 with the source written where the index says (docs/IR.md, "Scatter"); `id`
// as for eval_indexing.
HostTensor eval_scatter(const Node& node, int32_t id, const Values& values);

// The multi-index of a row-major linear index over `shape`, and back.
std::vector<int64_t> unravel_index(int64_t linear_index, const Shape& shape);
void unravel_index_into(int64_t linear_index, const Shape& shape, std::vector<int64_t>& index);
int64_t ravel_index(const std::vector<int64_t>& index, const Shape& shape);

// The literal as an element: integer literals stay exact, float literals are doubles.
Scalar scalar_of(const Number& number);

}  // namespace seam
