// Tensors the IR allows but this machine cannot hold fail with a message before anything is allocated:
// HostTensor, random inputs and the interpreter check the host memory limit (tensor/host_memory.h),
// and .npy shapes obey the IR's size limits before any stride is computed from them.
#include "tensor/host_memory.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <optional>

#include "interp_test_util.h"
#include "support/npy.h"
#include "tensor/tensor_npy.h"

namespace seam {
namespace {

using testing_interp::error_of;

bool contains(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

class HostMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* old = getenv("SEAM_HOST_MEMORY_LIMIT")) previous_ = old;
  }
  void TearDown() override {
    if (previous_)
      setenv("SEAM_HOST_MEMORY_LIMIT", previous_->c_str(), 1);
    else
      unsetenv("SEAM_HOST_MEMORY_LIMIT");
  }
  void limit(const char* value) { setenv("SEAM_HOST_MEMORY_LIMIT", value, 1); }
  std::optional<std::string> previous_;
};

TEST(ByteCount, ParsesDigitsAndBinarySuffixes) {
  EXPECT_EQ(parse_byte_count("0"), 0);
  EXPECT_EQ(parse_byte_count("1048576"), 1048576);
  EXPECT_EQ(parse_byte_count("512K"), 512 * 1024);
  EXPECT_EQ(parse_byte_count("3M"), 3 << 20);
  EXPECT_EQ(parse_byte_count("8G"), int64_t{8} << 30);
  EXPECT_EQ(parse_byte_count("2T"), int64_t{2} << 40);
  EXPECT_EQ(parse_byte_count(""), -1);
  EXPECT_EQ(parse_byte_count("G"), -1);
  EXPECT_EQ(parse_byte_count("-1"), -1);
  EXPECT_EQ(parse_byte_count("1.5G"), -1);
  EXPECT_EQ(parse_byte_count("99999999999999999999"), -1);
  EXPECT_EQ(parse_byte_count("9999999999T"), -1);  // overflows when scaled
}

TEST_F(HostMemory, DefaultIsThisMachinesMemory) {
  unsetenv("SEAM_HOST_MEMORY_LIMIT");
  EXPECT_GT(host_memory_limit(), int64_t{1} << 20);
  EXPECT_LT(host_memory_limit(), int64_t{1} << 50);
}

TEST_F(HostMemory, BadLimitIsAnError) {
  limit("lots");
  EXPECT_TRUE(
      contains(error_of([] { host_memory_limit(); }), "SEAM_HOST_MEMORY_LIMIT='lots' is not a byte count"));
}

TEST_F(HostMemory, TensorOverTheLimitFailsBeforeAllocating) {
  limit("1M");
  EXPECT_EQ(HostTensor::zeros(DType::Float32, {1 << 18}).storage().size(), size_t{1} << 20);
  const std::string message = error_of([] { HostTensor::zeros(DType::Float32, {(1 << 18) + 1}); });
  EXPECT_TRUE(contains(message, "HostTensor f32[262145] needs 1048580 bytes of host memory")) << message;
  EXPECT_TRUE(contains(message, "limit of 1048576 bytes (set by SEAM_HOST_MEMORY_LIMIT)")) << message;
  // Strided storage counts what the strides reach, not the element count.
  EXPECT_TRUE(contains(error_of([] {
                         HostTensor::zeros_strided(DType::Float32, {2, 2}, {1 << 18, 1});
                       }),
                       "host memory"));
}

TEST_F(HostMemory, LegalTensorTooLargeForTheMachine) {
  // 2^40 bytes is within the IR's limits but not this machine's memory: a message, not std::bad_alloc.
  unsetenv("SEAM_HOST_MEMORY_LIMIT");
  if (host_memory_limit() >= int64_t{1} << 40) GTEST_SKIP() << "this machine has 1 TiB of memory";
  const std::string message = error_of([] { HostTensor::zeros(DType::Bool, {int64_t{1} << 40}); });
  EXPECT_TRUE(contains(message, "needs 1099511627776 bytes of host memory")) << message;
  EXPECT_TRUE(contains(message, "SEAM_HOST_MEMORY_LIMIT sets another")) << message;
}

TEST_F(HostMemory, HostTensorsObeyTheIrSizeLimits) {
  EXPECT_TRUE(contains(error_of([] {
                         HostTensor::zeros(DType::Float64, {2147483648, 1073741824});
                       }),
                       "too many elements"));
  EXPECT_TRUE(contains(error_of([] {
                         HostTensor::zeros(DType::Float32, {0, int64_t{1} << 32, int64_t{1} << 32});
                       }),
                       "too many elements"));
}

TEST_F(HostMemory, InterpreterRefusesUpFront) {
  // Each value fits the limit, all of them together do not: refused before evaluating anything.
  Builder b("chain");
  Value x = b.input(testing_interp::f32({1 << 16}), "x");  // 256 KiB
  Value y = x;
  for (int i = 0; i < 8; ++i) y = b.neg(y);
  Fusion fusion = b.finish({y});
  limit("1M");
  const std::vector<HostTensor> inputs = random_inputs(fusion, 1);
  const std::string message = error_of([&] { interpret(fusion, inputs); });
  EXPECT_TRUE(contains(message, "interpreting fusion 'chain' (its largest value is %0 : f32[65536])"))
      << message;
  EXPECT_TRUE(contains(message, "needs 2359296 bytes of host memory")) << message;
  limit("4M");
  EXPECT_EQ(interpret(fusion, inputs).size(), 1u);
}

TEST_F(HostMemory, RandomInputsRefuseUpFront) {
  Builder b("inputs");
  Value x = b.input(testing_interp::f32({1 << 17}), "x");
  Value y = b.input(testing_interp::f32({1 << 17}), "y");
  Fusion fusion = b.finish({b.add(x, y)});
  limit("768K");
  EXPECT_TRUE(contains(error_of([&] { random_inputs(fusion, 1); }),
                       "the inputs of fusion 'inputs' needs 1048576 bytes of host memory"));
}

TEST(NpySizeLimits, HugeShapesAreErrorsBeforeAnyStride) {
  // An empty array passes the data length check whatever its other extents are.
  NpyArray empty{"<f4", false, {0, int64_t{1} << 62, int64_t{1} << 62}, {}};
  EXPECT_TRUE(
      contains(error_of([&] { host_tensor_from_npy(empty, std::nullopt, "e.npy"); }),
               "e.npy: .npy shape: type f32[0,4611686018427387904,4611686018427387904] has too many"));
  NpyArray fortran{"|b1", true, {0, int64_t{1} << 40, int64_t{1} << 40}, {}};
  EXPECT_TRUE(contains(error_of([&] { host_tensor_from_npy(fortran, std::nullopt, "f.npy"); }), "too many"));
  NpyArray fine{"<f4", true, {0, 3}, {}};
  EXPECT_EQ(host_tensor_from_npy(fine, std::nullopt, "ok.npy").numel(), 0);
}

}  // namespace
}  // namespace seam
