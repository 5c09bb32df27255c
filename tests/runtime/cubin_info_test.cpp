// Register counts read from cubins that NVRTC produced (no GPU needed), and malformed bytes rejected.
#include "runtime/cubin_info.h"

#include <gtest/gtest.h>

#include <string>

#include "runtime/nvrtc_compiler.h"
#include "test_kernels.h"

namespace seam {
namespace {

// Two kernels in one module: a copy and one that keeps 32 independent accumulators live.
constexpr const char* kTwoKernels = R"(
extern "C" __global__ void copy(const float* a, float* b) { b[threadIdx.x] = a[threadIdx.x]; }
extern "C" __global__ void many(const float* a, float* b, int n) {
  float acc[32];
  #pragma unroll
  for (int k = 0; k < 32; ++k) acc[k] = a[k * n + threadIdx.x];
  for (int i = 1; i < n; ++i) {
    #pragma unroll
    for (int k = 0; k < 32; ++k) acc[k] = acc[k] * a[i] + acc[(k + 1) % 32];
  }
  #pragma unroll
  for (int k = 0; k < 32; ++k) b[k * n + threadIdx.x] = acc[k];
}
)";

TEST(CubinInfo, ReadsEachKernelsRegisters) {
  if (!nvrtc_available()) GTEST_SKIP() << "seam was built without NVRTC";
  CompileRequest request;
  request.source = kTwoKernels;
  request.kernel_names = {"copy", "many"};
  CompiledKernel compiled = compile_cuda(request);
  std::optional<int> copy = cubin_registers(compiled.binary, compiled.symbol("copy"));
  std::optional<int> many = cubin_registers(compiled.binary, compiled.symbol("many"));
  ASSERT_TRUE(copy && many);
  EXPECT_GE(*copy, 4);
  EXPECT_LE(*copy, 32);
  EXPECT_GE(*many, 40);  // 32 accumulators live at once
  EXPECT_LE(*many, 255);
  EXPECT_FALSE(cubin_registers(compiled.binary, "no_such_kernel"));
}

// Static shared memory puts a NOBITS section (.nv.shared.<kernel>) in the cubin whose size passes the
// end of the file: the reader must not take that for a truncated file (every row kernel has one).
TEST(CubinInfo, ReadsKernelsWithSharedMemory) {
  if (!nvrtc_available()) GTEST_SKIP() << "seam was built without NVRTC";
  CompileRequest request;
  request.source = R"(
extern "C" __global__ void reduce(const float* a, float* b) {
  __shared__ float partial[4096];
  partial[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.f;
    for (int i = 0; i < blockDim.x; ++i) sum += partial[i];
    b[blockIdx.x] = sum;
  }
}
)";
  request.kernel_names = {"reduce"};
  CompiledKernel compiled = compile_cuda(request);
  ASSERT_TRUE(compiled.is_cubin);
  std::optional<int> registers = cubin_registers(compiled.binary, compiled.symbol("reduce"));
  ASSERT_TRUE(registers) << "a cubin with a .nv.shared section was rejected";
  EXPECT_GE(*registers, 2);
  EXPECT_LE(*registers, 255);
}

TEST(CubinInfo, MalformedBytesAreNotACount) {
  EXPECT_FALSE(cubin_registers("", "k"));
  EXPECT_FALSE(cubin_registers("not an elf file at all, but long enough to have a header........", "k"));
  if (!nvrtc_available()) return;
  CompileRequest request;
  request.source = test_kernels::kVectorAdd;
  request.kernel_names = {"vadd"};
  CompiledKernel compiled = compile_cuda(request);
  ASSERT_TRUE(cubin_registers(compiled.binary, compiled.symbol("vadd")));
  // Every truncation of a real cubin either still finds the count or says nothing; none reads past the end.
  for (size_t size = 0; size < compiled.binary.size(); size += 61)
    (void)cubin_registers(std::string_view(compiled.binary).substr(0, size), compiled.symbol("vadd"));
  std::string corrupted = compiled.binary;
  for (size_t at = 0x20; at < 0x40; ++at) corrupted[at] = '\xff';  // section header table fields
  EXPECT_FALSE(cubin_registers(corrupted, compiled.symbol("vadd")));
}

}  // namespace
}  // namespace seam
