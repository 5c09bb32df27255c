// What a cubin says about its kernels, read from its ELF sections without a GPU: the registers per thread
// that ptxas allocated (occupancy is bounded by them: more than 64 per thread leaves fewer than 2048
// threads per multiprocessor), so a code-generation change that raises register pressure is seen at
// compile time.
#pragma once

#include <optional>
#include <string_view>

namespace seam {

// Registers per thread of kernel `symbol` (its mangled name) in `cubin`; nullopt when `cubin` is not an
// ELF64 cubin, holds no such kernel or records no register count for it.
std::optional<int> cubin_registers(std::string_view cubin, std::string_view symbol);

}  // namespace seam
