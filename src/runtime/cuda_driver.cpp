#include "runtime/cuda_driver.h"

#include <dlfcn.h>

#include "support/error.h"

namespace seam {
namespace {

#if SEAM_HAVE_CUDA_HEADERS
static_assert(sizeof(CUdeviceptr) == 8, "seam needs 64-bit device pointers");
#endif

// Finds entry points in an opened driver library: through cuGetProcAddress (CUDA >= 11.3) asking for an
// exact ABI version, else through dlsym of the exported versioned symbol.
class SymbolResolver {
 public:
  explicit SymbolResolver(void* library) : library_(library) {
    proc_address_v12_ = reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(library, "cuGetProcAddress_v2"));
    if (proc_address_v12_ == nullptr) {
      proc_address_v11_ = reinterpret_cast<PFN_cuGetProcAddress_v11030>(dlsym(library, "cuGetProcAddress"));
    }
  }

  bool has_proc_address() const { return proc_address_v12_ != nullptr || proc_address_v11_ != nullptr; }

  void* resolve(const char* name, int abi_version, const char* exported_symbol) const {
    void* fn = nullptr;
    const cuuint64_t flags = CU_GET_PROC_ADDRESS_LEGACY_STREAM;  // the default-stream semantics of cuda.h
    if (proc_address_v12_ != nullptr) {
      CUdriverProcAddressQueryResult found{};
      if (proc_address_v12_(name, &fn, abi_version, flags, &found) == CUDA_SUCCESS &&
          found == CU_GET_PROC_ADDRESS_SUCCESS) {
        return fn;
      }
      fn = nullptr;
    } else if (proc_address_v11_ != nullptr) {
      if (proc_address_v11_(name, &fn, abi_version, flags) == CUDA_SUCCESS) return fn;
      fn = nullptr;
    }
    return dlsym(library_, exported_symbol);
  }

 private:
  void* library_;
  PFN_cuGetProcAddress_v12000 proc_address_v12_ = nullptr;
  PFN_cuGetProcAddress_v11030 proc_address_v11_ = nullptr;
};

// "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" using the driver being loaded.
std::string error_text_with(const Driver& driver, CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (driver.get_error_name != nullptr) driver.get_error_name(result, &name);
  if (driver.get_error_string != nullptr) driver.get_error_string(result, &text);
  std::string out = name != nullptr ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (text != nullptr) out += std::string(" (") + text + ")";
  return out;
}

DriverLoad unavailable(std::string reason) {
  DriverLoad load;
  load.status.reason = std::move(reason);
  return load;
}

}  // namespace

DriverLoad load_driver(const std::string& library_name) {
#if !SEAM_HAVE_CUDA_HEADERS
  return unavailable("no CUDA driver: seam was built without the CUDA toolkit headers (cuda.h)");
#else
  dlerror();
  void* library = dlopen(library_name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return unavailable("no CUDA driver: " + library_name + " not found (dlopen: " + (why ? why : "unknown") +
                       ")");
  }
  // From here on every failure closes the library; success keeps it open for the life of the process.
  auto fail = [&](std::string reason) {
    dlclose(library);
    return unavailable(std::move(reason));
  };

  SymbolResolver resolver(library);
  auto driver = std::make_unique<Driver>();
  std::string missing;
#define SEAM_RESOLVE(member, name, abi, type, symbol)                           \
  driver->member = reinterpret_cast<type>(resolver.resolve(name, abi, symbol)); \
  if (driver->member == nullptr && missing.empty()) missing = std::string(name) + " (ABI " #abi ")";
  SEAM_CUDA_DRIVER_FUNCTIONS(SEAM_RESOLVE)
#undef SEAM_RESOLVE
  if (!missing.empty()) {
    return fail(
        "no usable CUDA driver in " + library_name + ": entry point " + missing + " not found" +
        (resolver.has_proc_address() ? "" : " (and no cuGetProcAddress: driver older than CUDA 11.3?)"));
  }
  // Prefer the CUDA 12.8 elapsed-time entry point (same signature) where the driver has it.
  if (void* v2 = resolver.resolve("cuEventElapsedTime", 12080, "cuEventElapsedTime_v2")) {
    driver->event_elapsed_time = reinterpret_cast<PFN_cuEventElapsedTime_v2000>(v2);
  }

  CUresult result = driver->init(0);
  if (result != CUDA_SUCCESS) return fail("cuInit failed: " + error_text_with(*driver, result));
  result = driver->driver_get_version(&driver->version);
  if (result != CUDA_SUCCESS) return fail("cuDriverGetVersion failed: " + error_text_with(*driver, result));
  result = driver->device_get_count(&driver->device_count);
  if (result != CUDA_SUCCESS) return fail("cuDeviceGetCount failed: " + error_text_with(*driver, result));
  if (driver->device_count == 0) return fail("no CUDA device: cuDeviceGetCount found 0 devices");

  DriverLoad load;
  load.status.available = true;
  load.status.version = driver->version;
  load.status.device_count = driver->device_count;
  load.driver = std::move(driver);
  return load;
#endif
}

namespace {
// Loaded once, never unloaded: kernels and memory may be in use until the process exits.
const DriverLoad& process_driver() {
  static const DriverLoad load = load_driver("libcuda.so.1");
  return load;
}
}  // namespace

const DriverStatus& driver_status() { return process_driver().status; }

const Driver& driver() {
  const DriverLoad& load = process_driver();
  SEAM_CHECK(load.status.available, load.status.reason);
  return *load.driver;
}

std::string cuda_error_text(CUresult result) {
  const DriverLoad& load = process_driver();
  if (load.driver) return error_text_with(*load.driver, result);
  return "CUDA error " + std::to_string(static_cast<int>(result));
}

void check_cuda(CUresult result, const char* api, const std::string& context) {
  if (result == CUDA_SUCCESS) return;
  std::string message = std::string(api) + " failed: " + cuda_error_text(result);
  if (!context.empty()) message += " (" + context + ")";
  throw Error(message);
}

}  // namespace seam
