#include "runtime/device.h"

#include <charconv>
#include <map>
#include <memory>
#include <mutex>

#include "runtime/cuda_driver.h"
#include "runtime/runtime_env.h"
#include "support/error.h"

namespace seam {
namespace {

int attribute(CUdevice device, CUdevice_attribute which, const char* what) {
  int value = 0;
  check_cuda(driver().device_get_attribute(&value, which, device), "cuDeviceGetAttribute", what);
  return value;
}

// Attributes that newer drivers may stop reporting: 0 instead of an error.
int optional_attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  if (driver().device_get_attribute(&value, which, device) != CUDA_SUCCESS) return 0;
  return value;
}

CUdevice get_device(int ordinal) {
  const Driver& drv = driver();
  SEAM_CHECK(ordinal >= 0 && ordinal < drv.device_count, "CUDA device ", ordinal,
             " does not exist: ", drv.device_count, " device(s) visible");
  CUdevice device = 0;
  check_cuda(drv.device_get(&device, ordinal), "cuDeviceGet", "ordinal " + std::to_string(ordinal));
  return device;
}

}  // namespace

std::string DeviceProperties::arch_string() const {
  return "sm_" + std::to_string(compute_major) + std::to_string(compute_minor);
}

double DeviceProperties::peak_memory_bandwidth_bytes_per_s() const {
  if (memory_clock_khz <= 0 || memory_bus_width_bits <= 0) return 0.0;
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0);
}

DeviceProperties query_device_properties(int ordinal) {
  CUdevice device = get_device(ordinal);
  DeviceProperties p;
  p.ordinal = ordinal;
  char name[256] = {};
  SEAM_CU(device_get_name, name, static_cast<int>(sizeof(name) - 1), device);
  p.name = name;
  p.compute_major = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability");
  p.compute_minor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability");
  p.sm_count = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
  p.max_threads_per_block = attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "threads per block");
  p.warp_size = attribute(device, CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size");
  p.l2_cache_bytes = attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 size");
  p.max_shared_per_block =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "shared memory");
  p.max_shared_per_block_optin =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "opt-in shared memory");
  p.max_shared_per_sm =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, "shared memory per SM");
  p.sm_clock_khz = optional_attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  p.memory_clock_khz = optional_attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  p.memory_bus_width_bits = optional_attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  SEAM_CU(device_total_mem, &p.total_memory_bytes, device);
  return p;
}

Device::Device(int ordinal) : ordinal_(ordinal) {
  properties_ = query_device_properties(ordinal);
  device_ = get_device(ordinal);
  check_cuda(driver().primary_ctx_retain(&context_, device_), "cuDevicePrimaryCtxRetain",
             "device " + std::to_string(ordinal));
}

Device::~Device() {
  // Best effort: a destructor must not throw, and the process may be shutting the driver down.
  if (context_ != nullptr) driver().primary_ctx_release(device_);
}

void Device::make_current() const {
  check_cuda(driver().ctx_set_current(context_), "cuCtxSetCurrent", "device " + std::to_string(ordinal_));
}

int Device::default_ordinal() {
  std::optional<std::string> text = env_string("SEAM_DEVICE");
  if (!text) return 0;
  int ordinal = -1;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), ordinal);
  SEAM_CHECK(error == std::errc() && end == text->data() + text->size() && ordinal >= 0, "SEAM_DEVICE='",
             *text, "' is not a device ordinal (a non-negative integer)");
  return ordinal;
}

Device& Device::shared(int ordinal) {
  static std::mutex mutex;
  static auto* devices = new std::map<int, Device*>();  // leaked on purpose, see the header
  std::lock_guard<std::mutex> lock(mutex);
  auto it = devices->find(ordinal);
  if (it == devices->end()) it = devices->emplace(ordinal, new Device(ordinal)).first;
  return *it->second;
}

}  // namespace seam
