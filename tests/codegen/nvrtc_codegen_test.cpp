// Generated CUDA must compile with NVRTC for sm_90 (no GPU needed), so a kernel that does not compile
// fails CI. Many random kernels go into one program to keep the test fast; the largest programs go through
// the kernel cache, so that the sanitized run of the suite finds what the Release run compiled (the same
// source, options and NVRTC version give the same binary: runtime/kernel_cache.h).
#include <gtest/gtest.h>

#include <cstdlib>

#include "codegen/embedded_headers.h"
#include "codegen/kernel_printer.h"
#include "lower/lower_pointwise.h"
#include "plan/pointwise_plan.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"
#include "support/error.h"
#include "testing/nvrtc_request.h"
#include "testing/random_fusion.h"
#include "text/parser.h"
#include "workloads/rope.h"

namespace seam {
namespace {

CompileRequest request_for(const std::vector<kir::Kernel>& kernels) {
  CompileRequest request = testing_nvrtc::sm90_request();
  for (size_t i = 0; i < kernels.size(); ++i) {
    CudaLaunchShape shape;
    shape.block_size = 64 << (i % 3);  // __launch_bounds__ 64, 128, 256
    testing_nvrtc::add_kernel(request, kernels[i], shape);
  }
  return request;
}

TEST(NvrtcCodegen, RandomPointwiseKernelsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  RandomFusionOptions options;
  options.reductions = false;
  options.opaque = false;
  options.special_values = true;
  std::vector<kir::Kernel> kernels;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    options.max_extent = seed % 2 ? 16 : 4;
    LoweringOptions lowering;
    lowering.kernel_name = "kernel_" + std::to_string(seed);
    lowering.keep_reused_loads = lowering.streaming_stores = seed % 3 == 0;  // the cache-hint helpers too
    kernels.push_back(plan_and_lower_pointwise(random_fusion(seed, options), lowering));
  }
  CompiledKernel compiled = compile_cuda_cached(request_for(kernels), BinaryCache::shared());
  EXPECT_TRUE(compiled.is_cubin);
  ASSERT_GE(compiled.binary.size(), 4u);
  EXPECT_EQ(compiled.binary.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(compiled.symbols.size(), kernels.size());
}

// Inlined sums in a loop (#pragma unroll through SEAM_UNROLL): the GQA RoPE backward, both ways.
TEST(NvrtcCodegen, InlinedReductionLoopsCompileForSm90) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  RopeOptions rope;
  rope.batch = 2;
  rope.seq_len = 64;
  rope.contract = RopeContract::Thunder;
  rope.direction = Direction::Backward;
  const Fusion fusion = build_rope(rope_config("W5"), rope);
  std::vector<kir::Kernel> kernels;
  for (int unroll : {0, 2}) {
    LoweringOptions lowering;
    lowering.kernel_name = "rope_backward_unroll_" + std::to_string(unroll);
    lowering.reduction_loop_unroll = unroll;
    lowering.max_group = 2;
    kernels.push_back(plan_and_lower_pointwise(fusion, lowering));
  }
  const CompileRequest request = request_for(kernels);
  EXPECT_NE(request.source.find("SEAM_UNROLL(2)"), std::string::npos);
  CompiledKernel compiled = compile_cuda(request);
  EXPECT_EQ(compiled.symbols.size(), kernels.size());
}

// Every math op of the table in each compute type it allows (f32, f64, bf16 through f32, i32, i64): the
// device helpers (seam_<keyword>) exist for each and compile.
TEST(NvrtcCodegen, MathOpsCompileForSm90InEveryComputeType) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  std::string text = "fusion math_ops {\n";
  int next = 0;
  auto line = [&](const std::string& op, const std::string& operands, const std::string& type) {
    const std::string id = "%v" + std::to_string(next++);
    text += "  " + id + " = " + op + " " + operands + " : " + type + "[8]\n";
    return id;
  };
  std::vector<std::string> outputs;
  for (const char* dtype : {"f32", "f64", "bf16"}) {
    const std::string x = line("input", "", dtype), y = line("input", "", dtype);
    for (const char* op :
         {"acos",  "acosh", "asin",   "asinh",   "atan",   "atanh", "cosh",  "sinh",  "exp2",  "expm1",
          "log1p", "erfc",  "erfinv", "erfcinv", "lgamma", "ceil",  "floor", "trunc", "round", "frac"})
      outputs.push_back(line(op, x, dtype));
    for (const char* op : {"fmod", "remainder", "atan2", "nextafter"})
      outputs.push_back(line(op, x + ", " + y, dtype));
    outputs.push_back(line("signbit", x, "bool"));
  }
  for (const char* dtype : {"i32", "i64"}) {
    const std::string x = line("input", "", dtype), y = line("input", "", dtype);
    for (const char* op : {"ceil", "round", "bitwise_not"}) outputs.push_back(line(op, x, dtype));
    for (const char* op :
         {"fmod", "remainder", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
          "bitwise_right_shift", "logical_right_shift", "gcd", "trunc_div"})
      outputs.push_back(line(op, x + ", " + y, dtype));
    outputs.push_back(line("signbit", x, "bool"));
  }
  text += "  return ";
  for (size_t i = 0; i < outputs.size(); ++i) text += (i ? ", " : "") + outputs[i];
  text += "\n}\n";
  LoweringOptions lowering;
  lowering.kernel_name = "math_ops";
  const std::vector<kir::Kernel> kernels = {plan_and_lower_pointwise(parse_fusion(text), lowering)};
  const CompileRequest request = request_for(kernels);
  for (const char* helper :
       {"seam_erfcinv(", "seam_gcd(", "seam_logical_right_shift(", "seam_nextafter(", "seam_trunc_div("})
    EXPECT_NE(request.source.find(helper), std::string::npos) << helper;
  EXPECT_EQ(compile_cuda_cached(request, BinaryCache::shared()).symbols.size(), 1u);
}

TEST(NvrtcCodegen, BrokenSourceReportsTheLog) {
  if (!nvrtc_available()) GTEST_SKIP() << "built without NVRTC";
  CompileRequest request = testing_nvrtc::sm90_request();
  request.source = "#include \"seam_device.cuh\"\nSEAM_KERNEL void k() { undefined_thing(); }\n";
  request.kernel_names = {"k"};
  // The failed source goes to a directory of this test's own, named in the message.
  const std::string dir = ::testing::TempDir() + "seam_nvrtc_failure";
  setenv("SEAM_FAILURE_DIR", dir.c_str(), 1);
  try {
    compile_cuda(request);
    FAIL() << "expected a compile error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("undefined_thing"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace seam
