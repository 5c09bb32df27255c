// Compiling through the binary cache: the key is the SHA-256 of everything that determines the binary
// (source, embedded headers, kernel names, arch, the full NVRTC option list and the NVRTC version), so a
// hit is the binary NVRTC would produce now.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/binary_cache.h"
#include "runtime/nvrtc_compiler.h"

namespace seam {

// The key of a request compiled by NVRTC `version` (by default the version seam was built with).
CacheKey compile_cache_key(const CompileRequest& request);
CacheKey compile_cache_key(const CompileRequest& request, const std::string& version);

// Looks the request up in cache, else compiles and stores it. cache_hit, if given, says which happened.
// Entries are keyed by the NVRTC version that compiled them: the lookup tries the build's version first
// without loading NVRTC (so a process whose kernels are all on disk never loads it), and a process whose
// NVRTC differs from the build's looks up and stores under its own version.
CompiledKernel compile_cuda_cached(const CompileRequest& request, BinaryCache& cache,
                                   bool* cache_hit = nullptr);

// The cache payload of a compiled kernel, and back (nothing if the bytes are not such a payload).
std::string serialize_compiled_kernel(const CompiledKernel& kernel);
std::optional<CompiledKernel> deserialize_compiled_kernel(std::string_view bytes);

}  // namespace seam
