// Loading compiled kernels into the current context and launching them.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cuda_api.h"

namespace seam {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned shared_bytes = 0;  // dynamic shared memory
  CUstream stream = nullptr;  // nullptr: the legacy default stream
};

// A kernel of a loaded module. Remembers how far its dynamic shared memory limit has been raised; several
// threads may launch one Kernel object at once (runs of one executable on several streams).
class Kernel {
 public:
  Kernel(CUfunction function, std::string name) : function_(function), name_(std::move(name)) {}
  Kernel(const Kernel& other)
      : function_(other.function_),
        name_(other.name_),
        dynamic_shared_limit_(other.dynamic_shared_limit_.load()) {}
  Kernel& operator=(const Kernel& other) {
    function_ = other.function_;
    name_ = other.name_;
    dynamic_shared_limit_ = other.dynamic_shared_limit_.load();
    return *this;
  }
  CUfunction function() const { return function_; }
  const std::string& name() const { return name_; }

  // Raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES when a launch needs more than the 48 KB that
  // every kernel may use without opting in.
  void ensure_dynamic_shared_memory(unsigned bytes);

 private:
  CUfunction function_;
  std::string name_;
  std::atomic<unsigned> dynamic_shared_limit_{48 * 1024};
};

// A module (cubin or PTX) loaded in the context current at load time; unloaded on destruction.
class Module {
 public:
  // Throws seam::Error naming cuModuleLoadData and the error (a cubin for another GPU, say).
  static Module load(std::string_view image);
  ~Module();
  Module(Module&& other) noexcept;
  Module& operator=(Module&& other) noexcept;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Looks up a kernel by symbol (CompiledKernel::symbol gives it for a name expression).
  Kernel kernel(const std::string& symbol) const;
  CUmodule handle() const { return module_; }

 private:
  explicit Module(CUmodule module) : module_(module) {}
  CUmodule module_ = nullptr;
};

// Launches a kernel. args holds one pointer per kernel parameter, to a value of that parameter's type.
// With SEAM_SYNC_LAUNCH=1 the stream is synchronized after the launch, so that a fault is reported here,
// naming the kernel, instead of at some later call.
void launch(Kernel& kernel, const LaunchConfig& config, const std::vector<void*>& args);

// Whether SEAM_SYNC_LAUNCH is on (read once).
bool sync_launch_enabled();

}  // namespace seam
