// Compiles CUDA C++ with NVRTC for one exact GPU architecture. NVRTC needs no GPU, so this runs (and is
// tested) on machines without one. A failed compilation throws seam::Error with the NVRTC log and leaves
// the source and a reproducer on disk (SEAM_FAILURE_DIR or the temp directory), named in the message.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace seam {

struct CompileRequest {
  std::string source;
  std::string program_name = "seam_kernel.cu";  // the file name NVRTC reports in its log
  // Kernels to look up after compiling. extern "C" names by default; with name_expressions, C++ name
  // expressions such as "scale<float, 4>" whose mangled (lowered) names NVRTC reports.
  std::vector<std::string> kernel_names;
  bool name_expressions = false;
  // "sm_90": a cubin for exactly that GPU; "compute_90": PTX, which the driver compiles at load time.
  std::string arch = "sm_90";
  bool line_info = false;            // -lineinfo, for profilers
  std::vector<std::string> options;  // extra NVRTC options, appended after the defaults
  // Headers the source can #include by name, as (name, content) pairs; they shadow files on disk.
  std::vector<std::pair<std::string, std::string>> headers;
  // Free text saved beside a failed source (the caller passes fusion text and input signature).
  std::string reproducer;
};

struct CompiledKernel {
  std::string arch;
  bool is_cubin = true;  // false: PTX text
  std::string binary;    // the cubin (ELF) or PTX, ready for cuModuleLoadData
  // (requested kernel name, symbol to pass to cuModuleGetFunction) for each kernel name of the request.
  std::vector<std::pair<std::string, std::string>> symbols;
  std::string log;          // warnings, if any
  double compile_ms = 0.0;  // 0 when the kernel came from a cache

  // The symbol of a requested kernel name; throws seam::Error if it was not requested.
  const std::string& symbol(const std::string& kernel_name) const;
};

// Compiles; throws seam::Error on failure (see above), or when seam was built without NVRTC.
CompiledKernel compile_cuda(const CompileRequest& request);

// The complete NVRTC option list compile_cuda passes for this request (part of a cache key).
std::vector<std::string> nvrtc_options(const CompileRequest& request);

bool nvrtc_available();
// "13.0"; "none" when seam was built without NVRTC. Loads NVRTC (dlopen) on first use; throws seam::Error
// when it cannot be loaded.
std::string nvrtc_version();
// The NVRTC version of the toolkit seam was built with ("13.0"), known without loading NVRTC: the binary
// cache keys entries compiled by that version with it, so a process whose kernels are all on disk never
// loads NVRTC (runtime/kernel_cache.h).
std::string nvrtc_build_version();

// Include directories for NVRTC: SEAM_CUDA_INCLUDE (':'-separated) if set, else the toolkit's found at
// build time.
std::vector<std::string> cuda_include_dirs();

}  // namespace seam
