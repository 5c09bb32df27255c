// NVRTC compiles without a GPU, so these run everywhere seam is built with NVRTC.
#include "runtime/nvrtc_compiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "support/error.h"
#include "test_env.h"
#include "test_kernels.h"

namespace seam {
namespace {

// The run of non-space characters after `marker` in `text` (empty when the marker is missing). No
// std::regex: GCC 12 warns inside its std::function at the sanitized build's -O1.
std::string word_after(const std::string& text, const std::string& marker) {
  const size_t start = text.find(marker);
  if (start == std::string::npos) return "";
  const size_t from = start + marker.size();
  size_t end = from;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
  return text.substr(from, end - from);
}

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool is_elf(const std::string& binary) {
  return binary.size() > 4 && binary.compare(0, 4,
                                             "\x7f"
                                             "ELF") == 0;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh directory under the temp directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("seam_nvrtc_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

#define SKIP_WITHOUT_NVRTC() \
  if (!nvrtc_available()) GTEST_SKIP() << "seam was built without NVRTC"

TEST(NvrtcCompiler, VectorAddToSm90Cubin) {
  SKIP_WITHOUT_NVRTC();
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  request.arch = "sm_90";
  CompiledKernel kernel = compile_cuda(request);
  EXPECT_TRUE(kernel.is_cubin);
  EXPECT_EQ(kernel.arch, "sm_90");
  EXPECT_TRUE(is_elf(kernel.binary));
  EXPECT_EQ(kernel.symbol("vadd"), "vadd");
  EXPECT_GT(kernel.compile_ms, 0.0);
  // GPU.md measured 46-80 ms for a small kernel; a slow shared CI machine gets a wide margin.
  EXPECT_LT(kernel.compile_ms, 30000.0);
  EXPECT_THROW(kernel.symbol("other"), Error);
}

TEST(NvrtcCompiler, Bf16KernelWithToolkitHeaders) {
  SKIP_WITHOUT_NVRTC();
  CompileRequest request;
  request.source = test_kernels::kBf16Scale;
  request.kernel_names = {"bf16_scale"};
  CompiledKernel kernel = compile_cuda(request);
  EXPECT_TRUE(is_elf(kernel.binary));
  std::cout << "bf16 kernel: " << kernel.binary.size() << " bytes of sm_90 cubin in " << kernel.compile_ms
            << " ms (NVRTC " << nvrtc_version() << ")\n";
}

TEST(NvrtcCompiler, SeamCudaIncludeOverridesTheToolkitPath) {
  SKIP_WITHOUT_NVRTC();
  ScopedEnv env("SEAM_CUDA_INCLUDE", "/nonexistent/seam/include");
  EXPECT_EQ(cuda_include_dirs(), std::vector<std::string>{"/nonexistent/seam/include"});
  TempDir failures;
  ScopedEnv failure_dir("SEAM_FAILURE_DIR", failures.path().string());
  CompileRequest request;
  request.source = test_kernels::kBf16Scale;
  request.kernel_names = {"bf16_scale"};
  try {
    compile_cuda(request);
    FAIL() << "cuda_bf16.h should not be found under a nonexistent include directory";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "cuda_bf16.h")) << e.what();
  }
}

TEST(NvrtcCompiler, TemplateKernelGetsItsLoweredName) {
  SKIP_WITHOUT_NVRTC();
  CompileRequest request;
  request.source = test_kernels::kTemplate;
  request.kernel_names = {"scale<float, 4>", "scale<double, 1>"};
  CompiledKernel kernel = compile_cuda(request);
  ASSERT_EQ(kernel.symbols.size(), 2u);
  EXPECT_EQ(kernel.symbol("scale<float, 4>").rfind("_Z", 0), 0u) << kernel.symbol("scale<float, 4>");
  EXPECT_NE(kernel.symbol("scale<float, 4>"), kernel.symbol("scale<double, 1>"));
}

TEST(NvrtcCompiler, ComputeArchGivesPtx) {
  SKIP_WITHOUT_NVRTC();
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  request.arch = "compute_90";
  CompiledKernel kernel = compile_cuda(request);
  EXPECT_FALSE(kernel.is_cubin);
  EXPECT_TRUE(contains(kernel.binary, ".target sm_90")) << kernel.binary.substr(0, 400);
  EXPECT_TRUE(contains(kernel.binary, ".entry vadd"));
}

TEST(NvrtcCompiler, EmbeddedHeadersAreIncludedByName) {
  SKIP_WITHOUT_NVRTC();
  CompileRequest request;
  request.headers = {{"seam_helpers.cuh", "__device__ inline float twice(float x) { return 2.0f * x; }\n"}};
  request.source = R"(
#include "seam_helpers.cuh"
extern "C" __global__ void doubled(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
)";
  request.kernel_names = {"doubled"};
  EXPECT_TRUE(is_elf(compile_cuda(request).binary));
}

TEST(NvrtcCompiler, OptionsListIsComplete) {
  CompileRequest request;
  request.arch = "sm_90";
  request.line_info = true;
  request.options = {"--use_fast_math"};
  std::vector<std::string> options = nvrtc_options(request);
  auto has = [&](const std::string& o) {
    return std::find(options.begin(), options.end(), o) != options.end();
  };
  EXPECT_TRUE(has("--gpu-architecture=sm_90"));
  EXPECT_TRUE(has("--std=c++17"));
  EXPECT_TRUE(has("-default-device"));
  EXPECT_TRUE(has("--ptxas-options=-O3"));
  EXPECT_TRUE(has("-lineinfo"));
  EXPECT_EQ(options.back(), "--use_fast_math");  // caller options come last, so they win
  for (const std::string& dir : cuda_include_dirs()) EXPECT_TRUE(has("-I" + dir));
}

// SEAM_NVRTC_NO_CACHE=1 turns NVRTC's own program cache off (cold timings); the option list, part of
// seam's cache keys, stays the same, and a bad value is an error naming the variable.
TEST(NvrtcCompiler, NvrtcCacheCanBeTurnedOffWithoutChangingCacheKeys) {
  SKIP_WITHOUT_NVRTC();
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  const std::vector<std::string> options = nvrtc_options(request);
  const std::string binary = compile_cuda(request).binary;
  {
    ScopedEnv off("SEAM_NVRTC_NO_CACHE", "1");
    EXPECT_EQ(nvrtc_options(request), options);
    EXPECT_EQ(compile_cuda(request).binary, binary);  // the option is accepted; the code is the same
  }
  ScopedEnv bad("SEAM_NVRTC_NO_CACHE", "maybe");
  try {
    compile_cuda(request);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "SEAM_NVRTC_NO_CACHE")) << e.what();
  }
}

TEST(NvrtcCompiler, InvalidArchIsAnError) {
  for (const char* arch : {"sm90", "90", "sm_", "gfx90a", ""}) {
    CompileRequest request;
    request.source = test_kernels::kVectorAdd;
    request.arch = arch;
    try {
      compile_cuda(request);
      FAIL() << "arch '" << arch << "' should be rejected";
    } catch (const Error& e) {
      EXPECT_TRUE(contains(e.what(), "invalid GPU architecture") || contains(e.what(), "without NVRTC"))
          << e.what();
    }
  }
}

TEST(NvrtcCompiler, FailureThrowsTheLogAndSavesAReproducer) {
  SKIP_WITHOUT_NVRTC();
  TempDir dir;
  ScopedEnv env("SEAM_FAILURE_DIR", dir.path().string());
  CompileRequest request;
  request.program_name = "broken_fusion.cu";
  request.source = "extern \"C\" __global__ void broken(float* x) { x[0] = undefined_thing; }\n";
  request.kernel_names = {"broken"};
  request.reproducer = "fusion f(x: f32[4]) { ... }\ninputs: f32[4]";
  std::string message;
  try {
    compile_cuda(request);
    FAIL() << "the compilation should fail";
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_TRUE(contains(message, "NVRTC failed to compile broken_fusion.cu for sm_90")) << message;
  EXPECT_TRUE(contains(message, "NVRTC_ERROR_COMPILATION")) << message;
  EXPECT_TRUE(contains(message, "undefined_thing")) << message;  // the log

  const std::string saved_source = word_after(message, "source saved to ");
  ASSERT_TRUE(saved_source.ends_with(".cu")) << message;
  const fs::path source_path = saved_source;
  EXPECT_EQ(source_path.parent_path(), dir.path());
  EXPECT_EQ(read_file(source_path), request.source);
  const std::string saved_repro = word_after(message, "reproducer saved to ");
  ASSERT_TRUE(saved_repro.ends_with(".repro.txt")) << message;
  const std::string repro = read_file(saved_repro);
  EXPECT_TRUE(contains(repro, request.reproducer)) << repro;
  EXPECT_TRUE(contains(repro, "--gpu-architecture=sm_90")) << repro;
  EXPECT_TRUE(contains(repro, "undefined_thing")) << repro;
  EXPECT_TRUE(contains(source_path.filename().string(), "seam_failed_"));
}

TEST(NvrtcCompiler, UnknownKernelNameIsAnError) {
  SKIP_WITHOUT_NVRTC();
  TempDir dir;
  ScopedEnv env("SEAM_FAILURE_DIR", dir.path().string());
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"no_such_kernel"};
  try {
    compile_cuda(request);
    FAIL() << "a missing kernel should fail";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "no_such_kernel")) << e.what();
  }
}

TEST(NvrtcCompiler, VersionIsReported) {
  if (nvrtc_available()) {
    const std::string version = nvrtc_version();
    const size_t dot = version.find('.');
    auto digits = [](std::string_view t) {
      return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    EXPECT_TRUE(dot != std::string::npos && digits(std::string_view(version).substr(0, dot)) &&
                digits(std::string_view(version).substr(dot + 1)))
        << version;
  } else {
    EXPECT_EQ(nvrtc_version(), "none");
    CompileRequest request;
    request.source = test_kernels::kVectorAdd;
    try {
      compile_cuda(request);
      FAIL() << "compiling without NVRTC should throw";
    } catch (const Error& e) {
      EXPECT_TRUE(contains(e.what(), "seam was built without NVRTC")) << e.what();
    }
  }
}

}  // namespace
}  // namespace seam
