// The host backend's compiler: generated host C++ (codegen/kernel_printer.h) compiled by the system C++
// compiler into a shared object and loaded with dlopen. It lets CI, which has no GPU, execute the same
// index and vector code that runs on the GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/module_origin.h"

namespace seam {

class HostModule {
 public:
  using Entry = void (*)(void** args);
  HostModule(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  ~HostModule();
  HostModule(const HostModule&) = delete;
  HostModule& operator=(const HostModule&) = delete;

  // The entry point of a kernel printed by print_host_kernel; throws when absent.
  Entry entry(const std::string& kernel_name) const;
  void probe(int64_t* r) const;

 private:
  void* handle_;
  std::string path_;
};

// Compiles the kernel sources (each from print_host_kernel) into one shared object. The compiler is
// $SEAM_HOST_CXX or `c++`. On failure throws seam::Error with the compiler's output and keeps the source
// in a directory named in the message; `reproducer` (e.g. the fusion text) is written next to it.
// A module this process loaded for the same sources and compiler is returned again while alive.
// `origin` (optional): where the module came from. `optimize`: -O2 instead of -O0, for kernels with much
// work to do (HostOptimization): the compile takes about twice as long, the kernels run several times
// faster.
std::shared_ptr<HostModule> compile_host_kernels(const std::vector<std::string>& sources,
                                                 const std::string& reproducer = "",
                                                 ModuleOrigin* origin = nullptr, bool optimize = false);

}  // namespace seam
