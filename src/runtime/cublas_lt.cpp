#include "runtime/cublas_lt.h"

#include <dlfcn.h>

#include <mutex>
#include <type_traits>
#include <vector>

#include "runtime/runtime_env.h"
#include "support/error.h"

namespace seam::cublaslt {
namespace {

struct Load {
  Library library;
  std::string unavailable;  // why not, when not empty
};

Load load() {
  Load result;
  std::vector<std::string> names;
  if (std::optional<std::string> env = env_string("SEAM_CUBLASLT_LIBRARY"); env && !env->empty())
    names.push_back(*env);
  for (const char* dir : {"", "/usr/local/cuda/lib64/"})
    for (const char* file : {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"})
      names.push_back(std::string(dir) + file);
  void* handle = nullptr;
  for (const std::string& name : names) {
    if ((handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) {
      result.library.path = name;
      break;
    }
  }
  if (handle == nullptr) {
    result.unavailable = "cuBLASLt not found (tried " + names.front() + " and " +
                         std::to_string(names.size() - 1) + " other names; set SEAM_CUBLASLT_LIBRARY)";
    return result;
  }
  Library& lib = result.library;
  auto resolve = [&](auto& pointer, const char* name) {
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(dlsym(handle, name));
    if (pointer == nullptr && result.unavailable.empty())
      result.unavailable = "cuBLASLt at " + lib.path + " lacks " + name;
  };
  resolve(lib.create, "cublasLtCreate");
  resolve(lib.destroy, "cublasLtDestroy");
  resolve(lib.status_string, "cublasLtGetStatusString");
  resolve(lib.get_version, "cublasLtGetVersion");
  resolve(lib.matmul_desc_create, "cublasLtMatmulDescCreate");
  resolve(lib.matmul_desc_destroy, "cublasLtMatmulDescDestroy");
  resolve(lib.matmul_desc_set, "cublasLtMatmulDescSetAttribute");
  resolve(lib.layout_create, "cublasLtMatrixLayoutCreate");
  resolve(lib.layout_destroy, "cublasLtMatrixLayoutDestroy");
  resolve(lib.layout_set, "cublasLtMatrixLayoutSetAttribute");
  resolve(lib.preference_create, "cublasLtMatmulPreferenceCreate");
  resolve(lib.preference_destroy, "cublasLtMatmulPreferenceDestroy");
  resolve(lib.preference_set, "cublasLtMatmulPreferenceSetAttribute");
  resolve(lib.heuristic, "cublasLtMatmulAlgoGetHeuristic");
  resolve(lib.algo_config_get, "cublasLtMatmulAlgoConfigGetAttribute");
  resolve(lib.matmul, "cublasLtMatmul");
  if (!result.unavailable.empty()) {
    dlclose(handle);
    return result;
  }
  lib.version = lib.get_version();
  // The descriptors and the heuristic result seam declares are those of cuBLASLt 11 and later.
  if (lib.version < 110000) {
    result.unavailable = "cuBLASLt at " + lib.path + " is version " + std::to_string(lib.version) +
                         "; seam needs 11.0 or later";
    dlclose(handle);
  }
  return result;
}

}  // namespace

const Library& library() {
  static const Load loaded = load();
  SEAM_CHECK(loaded.unavailable.empty(), "matrix products on the GPU need cuBLASLt: ", loaded.unavailable);
  return loaded.library;
}

Handle handle() {
  static std::once_flag once;
  static Handle created = nullptr;
  std::call_once(once, [] {
    const Library& lib = library();
    check(lib.create(&created), "cublasLtCreate", "the process's handle");
  });
  return created;
}

void check(Status status, const char* call, const std::string& what) {
  if (status == 0) return;
  const char* text = nullptr;
  try {
    text = library().status_string(status);
  } catch (const Error&) {
  }
  SEAM_CHECK(false, call, " failed for ", what, ": cuBLAS status ", status,
             text ? std::string(" (") + text + ")" : "");
}

}  // namespace seam::cublaslt
