// Random ops on the GPU (docs/RANDOM.md): the kernels' values are the interpreter's bit for bit, for
// every dtype, both distributions, every segmentation strategy and reads through movement ops and
// reductions. Skips without a GPU.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "runtime/cuda_driver.h"
#include "testing/random_fusion.h"
#include "testing/random_ops_fusions.h"

namespace seam {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason

TEST(GpuSuite, RandomOpsBitExact) {
  SKIP_WITHOUT_GPU();
  for (const Fusion& fusion : random_ops_fusions()) {
    for (SegmentStrategy strategy : {SegmentStrategy::Auto, SegmentStrategy::NvfuserGreedy}) {
      for (bool inline_reductions : {true, false}) {
        ExecutableOptions options;
        options.backend = Backend::Cuda;
        options.poison_outputs = true;
        options.segment.strategy = strategy;
        if (!inline_reductions) options.segment.rules.limits.max_inlined_reduction = 0;
        auto exe = Executable::compile(fusion, options);
        std::vector<HostTensor> inputs = random_inputs(fusion, 3);
        std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
        ASSERT_EQ(actual.size(), expected.size());
        for (size_t o = 0; o < actual.size(); ++o) {
          Comparison c = compare_tensors(actual[o], expected[o], Tolerance{0, 0});
          EXPECT_TRUE(c.ok) << fusion.name() << " (" << strategy_name(strategy)
                            << (inline_reductions ? "" : ", row kernels") << ") output " << o << ": "
                            << c.message;
        }
      }
    }
  }
}

TEST(GpuSuite, RandomOpsInRandomFusions) {
  SKIP_WITHOUT_GPU();
  RandomFusionOptions options;
  options.random = true;
  options.opaque = false;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Fusion fusion = random_fusion(9500 + seed, options);
    ExecutableOptions exe_options;
    exe_options.backend = Backend::Cuda;
    exe_options.poison_outputs = true;
    auto exe = Executable::compile(fusion, exe_options);
    std::vector<HostTensor> inputs = random_inputs(fusion, seed);
    std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
    ASSERT_EQ(actual.size(), expected.size());
    auto tolerance = [](DType dtype) {
      return is_floating(dtype) && dtype != DType::BFloat16 && dtype != DType::Float16
                 ? Tolerance{1e-5, 1e-6}
                 : default_tolerance(dtype);
    };
    const std::vector<Comparison> comparisons = compare_outputs(fusion, inputs, actual, expected, tolerance);
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison& c = comparisons[o];
      EXPECT_TRUE(c.ok) << fusion.name() << " output " << o << ": " << c.message;
    }
  }
}

}  // namespace
}  // namespace seam
