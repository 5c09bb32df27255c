// Environment variables read by the runtime, in one place (docs/RUNTIME.md lists them):
//   SEAM_CACHE_DIR     on-disk kernel cache directory; "off" disables the disk cache
//   SEAM_FAILURE_DIR   where failed compilations leave their source and reproducer
//   SEAM_DEVICE        CUDA device ordinal (default 0)
//   SEAM_SYNC_LAUNCH   "1": synchronize and check errors after every kernel launch
//   SEAM_CUDA_INCLUDE  ':'-separated include directories of the CUDA toolkit for NVRTC
//   SEAM_NVRTC_NO_CACHE "1": NVRTC's own cache of compiled programs (CUDA 12.9+) off, for cold timings
//   SEAM_CUPTI_LIBRARY the CUPTI library to open for kernel durations (runtime/kernel_activity.h)
#pragma once

#include <optional>
#include <string>

namespace seam {

// The variable's value, or nothing when it is unset or empty.
std::optional<std::string> env_string(const char* name);
// True for "1", "true", "yes", "on" (any case); false when unset, empty, "0", "false", "no", "off";
// throws seam::Error naming the variable for anything else.
bool env_flag(const char* name);

}  // namespace seam
