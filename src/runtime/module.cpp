#include "runtime/module.h"

#include <mutex>
#include <utility>

#include "runtime/cuda_driver.h"
#include "runtime/runtime_env.h"
#include "support/error.h"

namespace seam {

namespace {
std::string dims(const Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}
}  // namespace

void Kernel::ensure_dynamic_shared_memory(unsigned bytes) {
  if (bytes <= dynamic_shared_limit_.load()) return;
  // Raised under a lock: two threads setting the attribute at once could leave the lower limit set.
  static std::mutex raising;
  std::lock_guard<std::mutex> lock(raising);
  if (bytes <= dynamic_shared_limit_.load()) return;
  check_cuda(driver().func_set_attribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                         static_cast<int>(bytes)),
             Driver::api_name_func_set_attribute,
             "raising the dynamic shared memory of " + name_ + " to " + std::to_string(bytes) + " bytes");
  dynamic_shared_limit_ = bytes;
}

Module Module::load(std::string_view image) {
  SEAM_CHECK(!image.empty(), "cannot load an empty CUDA module image");
  // cuModuleLoadData reads PTX up to its terminating NUL: make sure there is one.
  std::string owned;
  const void* data = image.data();
  if (image.back() != '\0' && image.substr(0, 4) !=
                                  "\x7f"
                                  "ELF") {
    owned.assign(image);
    data = owned.c_str();
  }
  CUmodule module = nullptr;
  SEAM_CU(module_load_data, &module, data);
  return Module(module);
}

Module::~Module() {
  if (module_ != nullptr) driver().module_unload(module_);  // best effort: destructors must not throw
}

Module::Module(Module&& other) noexcept : module_(std::exchange(other.module_, nullptr)) {}

Module& Module::operator=(Module&& other) noexcept {
  if (this != &other) {
    if (module_ != nullptr) driver().module_unload(module_);
    module_ = std::exchange(other.module_, nullptr);
  }
  return *this;
}

Kernel Module::kernel(const std::string& symbol) const {
  CUfunction function = nullptr;
  check_cuda(driver().module_get_function(&function, module_, symbol.c_str()),
             Driver::api_name_module_get_function, "kernel " + symbol);
  return Kernel(function, symbol);
}

bool sync_launch_enabled() {
  static const bool enabled = env_flag("SEAM_SYNC_LAUNCH");
  return enabled;
}

void launch(Kernel& kernel, const LaunchConfig& config, const std::vector<void*>& args) {
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  SEAM_CHECK(g.x > 0 && g.y > 0 && g.z > 0 && b.x > 0 && b.y > 0 && b.z > 0, "launching ", kernel.name(),
             " with an empty grid ", dims(g), " or block ", dims(b));
  kernel.ensure_dynamic_shared_memory(config.shared_bytes);
  // The description is built only on failure: a launch costs a few microseconds and runs often.
  auto where = [&] {
    return kernel.name() + " grid " + dims(g) + " block " + dims(b) + " shared " +
           std::to_string(config.shared_bytes);
  };
  // cuLaunchKernel reads the array without writing it; its prototype is just not const.
  void** params = args.empty() ? nullptr : const_cast<void**>(args.data());
  CUresult result = driver().launch_kernel(kernel.function(), g.x, g.y, g.z, b.x, b.y, b.z,
                                           config.shared_bytes, config.stream, params, nullptr);
  if (result != CUDA_SUCCESS) check_cuda(result, Driver::api_name_launch_kernel, where());
  if (sync_launch_enabled()) {
    result = driver().stream_synchronize(config.stream);
    if (result != CUDA_SUCCESS) {
      check_cuda(result, Driver::api_name_stream_synchronize,
                 "after launching " + where() + " (SEAM_SYNC_LAUNCH=1)");
    }
  }
}

}  // namespace seam
