// Scatter fusions and their inputs, shared by the host-backend, NVRTC and GPU tests (docs/IR.md,
// "Scatter"; docs/CODEGEN.md, "Scatter"): every axis (first, last, middle; negative axes), i32 and i64
// indices with negative values, dtypes from bool to f64 and f8, sources larger than the index, strided
// inputs, scalar sources (an input and a literal), intermediates as data, index and source, the scatter
// read by later work, empty index and empty data. Indices are unique along each line of the axis unless
// the case says it repeats them (`duplicates`): then only the host backend, which walks the writes in
// order as the interpreter does, must agree exactly; a GPU lands any one of the writes.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam::testing_scatter {

struct ScatterCase {
  std::string name;
  Fusion fusion;
  std::vector<HostTensor> inputs;
  bool duplicates = false;
};

// `size`: 1 for the small cases the host tests run, larger (thousands of rows) for the GPU.
std::vector<ScatterCase> scatter_cases(int64_t size = 1);

// An index tensor of `shape` (laid out contiguously) whose values along `axis` name positions of an axis
// of `extent`: distinct within each line (a random choice of positions; about half of them written
// negative, i - extent) unless `duplicates`, then drawn with repetition.
HostTensor scatter_indices(DType dtype, const Shape& shape, int64_t axis, int64_t extent, bool duplicates,
                           std::mt19937_64& rng);

}  // namespace seam::testing_scatter
