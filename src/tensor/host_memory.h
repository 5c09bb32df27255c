// How much host memory host tensors may take. A tensor the IR allows (up to 2^40 bytes) may still not
// fit this machine; it must fail with a message before allocating, not with std::bad_alloc or the OOM
// killer. The limit is $SEAM_HOST_MEMORY_LIMIT when set (bytes, or with a K, M, G or T suffix, powers
// of 1024), otherwise the machine's physical memory or its cgroup's memory.max, whichever is smaller.
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/fusion.h"

namespace seam {

int64_t host_memory_limit();

// Throws seam::Error naming `what` and both sizes when `bytes` exceed host_memory_limit().
void check_host_memory(int64_t bytes, std::string_view what);

// Parses a byte count like "1048576", "512M" or "8G"; -1 for anything else (or on overflow).
int64_t parse_byte_count(std::string_view text);

// Throws seam::Error when the storage of the fusion's inputs together passes the host memory limit.
void check_inputs_fit_host_memory(const Fusion& fusion);

}  // namespace seam
