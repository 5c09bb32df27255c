// Compiling through the cache: keys separate everything that changes the binary; hits skip NVRTC.
#include "runtime/kernel_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_kernels.h"

namespace seam {
namespace {

namespace fs = std::filesystem;

CompileRequest vector_add_request() {
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  request.arch = "sm_90";
  return request;
}

TEST(KernelCache, KeyChangesWithEverythingThatChangesTheBinary) {
  const CompileRequest base = vector_add_request();
  const CacheKey base_key = compile_cache_key(base);
  EXPECT_EQ(compile_cache_key(base), base_key);

  std::vector<std::pair<const char*, CompileRequest>> variants;
  auto variant = [&](const char* what) -> CompileRequest& {
    return variants.emplace_back(what, base).second;
  };
  variant("source").source += "\n// changed";
  variant("arch").arch = "sm_80";
  variant("ptx").arch = "compute_90";
  variant("option").options = {"--use_fast_math"};
  variant("line info").line_info = true;
  variant("kernel names").kernel_names = {"vadd", "vadd"};
  variant("header").headers = {{"h.cuh", "// h"}};
  variant("header content").headers = {{"h.cuh", "// other"}};
  variant("program name").program_name = "other.cu";
  for (const auto& [what, request] : variants) {
    EXPECT_NE(compile_cache_key(request), base_key) << what;
  }
  // The reproducer is only for failures: it must not split the cache.
  CompileRequest with_reproducer = base;
  with_reproducer.reproducer = "fusion text";
  EXPECT_EQ(compile_cache_key(with_reproducer), base_key);
}

TEST(KernelCache, PayloadRoundTrip) {
  CompiledKernel kernel;
  kernel.arch = "sm_90";
  kernel.is_cubin = true;
  kernel.binary = std::string(
      "\x7f"
      "ELF\0\1\2",
      7);
  kernel.symbols = {{"scale<float, 4>", "_Z5scaleIfLi4EEvPT_S0_i"}, {"vadd", "vadd"}};
  kernel.log = "warning: something";
  const std::string bytes = serialize_compiled_kernel(kernel);
  std::optional<CompiledKernel> back = deserialize_compiled_kernel(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->arch, kernel.arch);
  EXPECT_EQ(back->is_cubin, kernel.is_cubin);
  EXPECT_EQ(back->binary, kernel.binary);
  EXPECT_EQ(back->symbols, kernel.symbols);
  EXPECT_EQ(back->log, kernel.log);
  for (size_t cut = 0; cut < bytes.size(); cut += 7) {
    EXPECT_FALSE(deserialize_compiled_kernel(std::string_view(bytes).substr(0, cut))) << cut;
  }
  EXPECT_FALSE(deserialize_compiled_kernel(bytes + "x"));
}

TEST(KernelCache, SecondCompileIsAHitInMemoryAndOnDisk) {
  if (!nvrtc_available()) GTEST_SKIP() << "seam was built without NVRTC";
  const fs::path dir = fs::temp_directory_path() / ("seam_kernel_cache_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const CompileRequest request = vector_add_request();
  bool hit = true;
  CompiledKernel first;
  {
    BinaryCache cache(dir);
    first = compile_cuda_cached(request, cache, &hit);
    EXPECT_FALSE(hit);
    EXPECT_GT(first.compile_ms, 0.0);
    CompiledKernel second = compile_cuda_cached(request, cache, &hit);
    EXPECT_TRUE(hit);
    EXPECT_EQ(second.binary, first.binary);
    EXPECT_EQ(cache.stats().memory_hits, 1);
  }
  BinaryCache other_process(dir);
  CompiledKernel third = compile_cuda_cached(request, other_process, &hit);
  EXPECT_TRUE(hit);
  EXPECT_EQ(other_process.stats().disk_hits, 1);
  EXPECT_EQ(third.binary, first.binary);
  EXPECT_EQ(third.symbol("vadd"), "vadd");
  EXPECT_EQ(third.compile_ms, 0.0);  // not compiled now
  fs::remove_all(dir);
}

bool nvrtc_is_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("/libnvrtc.so") != std::string::npos) return true;
  return false;
}

// NVRTC is opened on first use, and a hit keyed by the build's NVRTC version does not need it: a new
// process whose kernels are all on disk never maps its 100 MB.
TEST(KernelCache, ADiskHitInANewProcessDoesNotLoadNvrtc) {
  if (!nvrtc_available()) GTEST_SKIP() << "seam was built without NVRTC";
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child re-executes this test: a fresh process
  const char* inherited = std::getenv("SEAM_TEST_LAZY_NVRTC_DIR");
  const bool parent = inherited == nullptr;
  const fs::path dir =
      parent ? fs::temp_directory_path() / ("seam_kernel_cache_lazy_nvrtc_" + std::to_string(::getpid()))
             : fs::path(inherited);
  const CompileRequest request = vector_add_request();
  if (parent) {
    fs::remove_all(dir);
    ::setenv("SEAM_TEST_LAZY_NVRTC_DIR", dir.c_str(), 1);
    BinaryCache cache(dir);
    compile_cuda_cached(request, cache);
    EXPECT_TRUE(nvrtc_is_mapped());  // compiled here: the detector sees it
    if (nvrtc_version() != nvrtc_build_version())
      GTEST_SKIP() << "NVRTC " << nvrtc_version() << " is not the build's " << nvrtc_build_version();
  }
  EXPECT_EXIT(
      {
        BinaryCache cache(dir);
        bool hit = false;
        CompiledKernel kernel = compile_cuda_cached(request, cache, &hit);
        std::exit(hit && kernel.symbol("vadd") == "vadd" && !nvrtc_is_mapped() ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
  if (parent) {
    ::unsetenv("SEAM_TEST_LAZY_NVRTC_DIR");
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace seam
