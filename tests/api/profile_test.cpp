// Executable::run_profiled on the host backend: the run's results are those of run_into, and the profile
// has a step per launch with its scheduler, group, name and host time. The CUDA path (CUPTI or events) is
// exercised by tests/python/test_profile.py on CUDA tensors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "seam/api.h"

namespace seam::api {
namespace {

uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

// y = exp(a @ b + c), total = sum(y, axis 1): a library step (the product) and generated kernels.
Fusion product_with_epilogue() {
  FusionBuilder b("profiled");
  Value a = b.input(DType::Float32, {4, 8}, {}, "a");
  Value m = b.input(DType::Float32, {8, 3}, {}, "b");
  Value c = b.input(DType::Float32, {4, 3}, {}, "c");
  Value y = b.op("exp", {b.op("add", {b.op("matmul", {a, m}), c})});
  Value total = b.op("sum", {y}, {{"axes", std::vector<int64_t>{1}}, {"keepdim", false}});
  return b.finish({{"y", y}, {"total", total}});
}

TEST(ApiProfile, HostRunTimesEveryStepAndComputesTheSameResults) {
  Executable exe = Executable::compile(product_with_epilogue(), {.backend = Backend::Host});
  std::vector<float> a(32), m(24), c(12);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.01f * static_cast<float>(i);
  for (size_t i = 0; i < m.size(); ++i) m[i] = 0.02f * static_cast<float>(i % 5);
  for (size_t i = 0; i < c.size(); ++i) c[i] = -0.1f * static_cast<float>(i);
  const std::vector<TensorRef> inputs = {{address(a.data()), DType::Float32, {4, 8}, {8, 1}},
                                         {address(m.data()), DType::Float32, {8, 3}, {3, 1}},
                                         {address(c.data()), DType::Float32, {4, 3}, {3, 1}}};
  std::vector<float> y(12), total(4), plain_y(12), plain_total(4);
  const RunProfile profile = exe.run_profiled(inputs, {{address(y.data()), DType::Float32, {4, 3}, {3, 1}},
                                                       {address(total.data()), DType::Float32, {4}, {1}}});
  exe.run_into(inputs, {{address(plain_y.data()), DType::Float32, {4, 3}, {3, 1}},
                        {address(plain_total.data()), DType::Float32, {4}, {1}}});
  EXPECT_EQ(y, plain_y);
  EXPECT_EQ(total, plain_total);
  for (int i = 0; i < 4; ++i) {
    float row = 0;
    for (int j = 0; j < 3; ++j) {
      float dot = c[static_cast<size_t>(i * 3 + j)];
      for (int k = 0; k < 8; ++k)
        dot += a[static_cast<size_t>(i * 8 + k)] * m[static_cast<size_t>(k * 3 + j)];
      EXPECT_NEAR(y[static_cast<size_t>(i * 3 + j)], std::exp(dot), 1e-4f);
      row += std::exp(dot);
    }
    EXPECT_NEAR(total[static_cast<size_t>(i)], row, 1e-3f);
  }

  EXPECT_EQ(profile.timing, "host");
  EXPECT_EQ(profile.timing_note, "");
  EXPECT_EQ(profile.segments, exe.num_kernels());
  EXPECT_EQ(profile.event_time_ms, -1.0);
  ASSERT_GE(profile.steps.size(), 2u);
  int libraries = 0;
  double sum = 0;
  for (const StepProfile& s : profile.steps) {
    EXPECT_TRUE(s.launched);
    EXPECT_GE(s.time_ms, 0.0);
    EXPECT_EQ(s.event_time_ms, -1.0);
    EXPECT_EQ(s.gpu_kernels, -1);
    EXPECT_GE(s.segment, 0);
    EXPECT_LT(s.segment, profile.segments);
    EXPECT_GT(s.input_bytes, 0);
    EXPECT_GT(s.output_bytes, 0);
    sum += s.time_ms;
    if (s.scheduler == "library") {
      ++libraries;
      EXPECT_EQ(s.name, "matmul on the host");
      EXPECT_EQ(s.blocks, 0);
    } else {
      EXPECT_TRUE(s.scheduler == "pointwise" || s.scheduler == "rows") << s.scheduler;
      EXPECT_FALSE(s.name.empty());
      EXPECT_GT(s.blocks, 0);
      EXPECT_GT(s.block, 0);
    }
  }
  EXPECT_EQ(libraries, 1);
  EXPECT_DOUBLE_EQ(profile.kernel_time_ms, sum);
  EXPECT_GE(profile.host_time_ms, profile.kernel_time_ms);
  EXPECT_EQ(profile.input_bytes, (32 + 24 + 12) * 4);
  EXPECT_EQ(profile.output_bytes, (12 + 4) * 4);
  EXPECT_EQ(profile.peak_bandwidth_gbs, 0.0);
}

TEST(ApiProfile, BadInputsAreTheRunsErrorsAndTheNextProfiledRunWorks) {
  Executable exe = Executable::compile(product_with_epilogue(), {.backend = Backend::Host});
  std::vector<float> a(32), m(24), c(12), y(12), total(4);
  const std::vector<TensorRef> outputs = {{address(y.data()), DType::Float32, {4, 3}, {3, 1}},
                                          {address(total.data()), DType::Float32, {4}, {1}}};
  try {
    exe.run_profiled({{address(a.data()), DType::Float32, {4, 8}, {8, 1}}}, outputs);
    FAIL() << "a missing input must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("takes 3 inputs, got 1"), std::string::npos) << e.what();
  }
  const RunProfile again = exe.run_profiled({{address(a.data()), DType::Float32, {4, 8}, {8, 1}},
                                             {address(m.data()), DType::Float32, {8, 3}, {3, 1}},
                                             {address(c.data()), DType::Float32, {4, 3}, {3, 1}}},
                                            outputs);
  EXPECT_EQ(again.timing, "host");
  EXPECT_GE(again.steps.size(), 2u);
}

}  // namespace
}  // namespace seam::api
