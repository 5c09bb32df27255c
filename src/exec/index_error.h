// The runtime side of out-of-range indices on the GPU and the host backend: kernels with indexing ops
// record the first index outside [-n, n) they meet (kir::checks_indices, kir::kIndexErrorWords;
// docs/CODEGEN.md, "Indexing") and read position 0 instead; the executable reads the record after the
// launches finish and throws, so that a bad index is an error naming the op and the index, never a silent
// result.
#pragma once

#include <cstdint>
#include <string>

namespace seam {

// Throws seam::Error when `record` (kir::kIndexErrorWords words: op + 1, index, extent, axis) holds an
// error; `where` names the fusion.
void throw_if_index_error(const int64_t* record, const std::string& where);

}  // namespace seam
