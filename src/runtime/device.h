// A CUDA device and its primary context: the context the CUDA runtime and libraries (cuBLAS, PyTorch)
// share, so memory and modules of seam interoperate with theirs.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/cuda_api.h"

namespace seam {

struct DeviceProperties {
  int ordinal = 0;
  std::string name;  // "NVIDIA H200"
  int compute_major = 0;
  int compute_minor = 0;
  int sm_count = 0;
  int max_threads_per_block = 0;
  int warp_size = 0;
  int l2_cache_bytes = 0;
  int max_shared_per_block = 0;        // without opting in (48 KB)
  int max_shared_per_block_optin = 0;  // with cuFuncSetAttribute (227 KB on sm_90)
  int max_shared_per_sm = 0;
  int sm_clock_khz = 0;      // 0 where the driver no longer reports it
  int memory_clock_khz = 0;  // 0 where the driver no longer reports it
  int memory_bus_width_bits = 0;
  size_t total_memory_bytes = 0;

  // The NVRTC target of the exact GPU: "sm_90".
  std::string arch_string() const;
  // Theoretical DRAM bandwidth from the memory clock and bus width (double data rate), 0 if unknown.
  // Only an input for cost models: measured copy bandwidth is lower (H200: ~4.2 of 4.8 TB/s).
  double peak_memory_bandwidth_bytes_per_s() const;
};

class Device {
 public:
  // Retains the primary context of the device; throws seam::Error if the driver or the device is missing.
  explicit Device(int ordinal);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // SEAM_DEVICE when set (a non-negative integer), else 0.
  static int default_ordinal();
  // A process-wide Device per ordinal, made on first use and kept until exit (never released, so that
  // memory and modules outlive static destructors safely).
  static Device& shared(int ordinal);
  static Device& shared() { return shared(default_ordinal()); }

  const DeviceProperties& properties() const { return properties_; }
  std::string arch_string() const { return properties_.arch_string(); }
  CUdevice handle() const { return device_; }
  CUcontext context() const { return context_; }
  // Makes the primary context current on the calling thread (driver calls act on the current context).
  void make_current() const;

 private:
  int ordinal_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  DeviceProperties properties_;
};

// Reads the properties of a device (no context needed).
DeviceProperties query_device_properties(int ordinal);

}  // namespace seam
