// Random ops through the whole pipeline on the host backend: bit for bit the interpreter's values
// (docs/RANDOM.md), whatever the segmentation, vector width or kernel kind that computes them.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/philox.h"
#include "testing/random_fusion.h"
#include "testing/random_ops_fusions.h"

namespace seam {
namespace {

void expect_bit_exact(const Fusion& fusion, const ExecutableOptions& options, uint64_t seed,
                      const std::string& what) {
  auto exe = Executable::compile(fusion, options);
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    Comparison c = compare_tensors(actual[o], expected[o], Tolerance{0, 0});
    EXPECT_TRUE(c.ok) << fusion.name() << " (" << what << ") output " << o << ": " << c.message;
  }
}

TEST(RandomExecutable, HostBackendIsBitExactUnderEverySegmentation) {
  for (const Fusion& fusion : random_ops_fusions()) {
    for (SegmentStrategy strategy : {SegmentStrategy::Auto, SegmentStrategy::NvfuserGreedy}) {
      ExecutableOptions options;
      options.backend = Backend::Host;
      options.poison_outputs = true;
      options.segment.strategy = strategy;
      expect_bit_exact(fusion, options, 5, std::string(strategy_name(strategy)));
    }
    ExecutableOptions rows;  // reductions as row kernels, never inlined
    rows.poison_outputs = true;
    rows.segment.rules.limits.max_inlined_reduction = 0;
    expect_bit_exact(fusion, rows, 6, "row kernels");
    ExecutableOptions raw;  // without the passes (no CSE of the random ops)
    raw.run_passes = false;
    expect_bit_exact(fusion, raw, 7, "no passes");
  }
}

// A fusion split by a matrix product: the same random op is computed in the kernels on both sides.
TEST(RandomExecutable, RecomputedAcrossKernelsGivesTheSameValues) {
  Builder b("split");
  Value w = b.input(Type::tensor(DType::Float32, {8, 8}), "w");
  auto c64 = [&](double v) { return b.constant(Number::of_float(v), DType::Float64); };
  auto i64 = [&](int64_t v) { return b.constant(Number::of_int(v), DType::Int64); };
  Value u = b.uniform(c64(0.0), c64(1.0), i64(17), i64(2), {8, 8}, DType::Float32);
  Value m = b.matmul(b.add(u, w), w);
  Value out = b.add(m, u);
  Fusion f = b.finish({out, u});
  ExecutableOptions options;
  options.poison_outputs = true;
  expect_bit_exact(f, options, 8, "split by matmul");
  auto exe = Executable::compile(f, options);
  EXPECT_GE(exe->segmented().num_kernels(), 2);
}

// A slice at the end of a random op of 2^33 elements: the kernel indexes it in 64 bits and computes only
// the elements read (the interpreter would materialize all of them, so the expected values come from the
// generator directly).
TEST(RandomExecutable, ElementIndicesBeyond32Bits) {
  Builder b("far");
  auto c64 = [&](double v) { return b.constant(Number::of_float(v), DType::Float64); };
  auto i64 = [&](int64_t v) { return b.constant(Number::of_int(v), DType::Int64); };
  const int64_t rows = int64_t{1} << 32;
  Value u = b.uniform(c64(0.0), c64(1.0), i64(3), i64(0), {rows, 2}, DType::Float32);
  Value tail = b.slice(u, {rows - 2, 0}, {rows, 2}, {1, 1});
  auto exe = Executable::compile(b.finish({tail}), ExecutableOptions{});
  ASSERT_EQ(exe->steps().size(), 1u);
  EXPECT_TRUE(exe->steps()[0].kernel.index64);
  std::vector<HostTensor> out = exe->run({});
  ASSERT_EQ(out.size(), 1u);
  for (int64_t k = 0; k < 4; ++k) {
    const uint64_t element = static_cast<uint64_t>(2 * rows - 4 + k);
    const float expected = rng::uniform(rng::element_words(3, 0, element), 0.0f, 1.0f);
    EXPECT_EQ(out[0].get_double(k), static_cast<double>(expected)) << k;
  }
}

TEST(RandomExecutable, RandomFusionsWithRandomOps) {
  RandomFusionOptions options;
  options.random = true;
  options.opaque = false;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    Fusion fusion = random_fusion(9100 + seed, options);
    ExecutableOptions exe_options;
    exe_options.poison_outputs = true;
    auto exe = Executable::compile(fusion, exe_options);
    std::vector<HostTensor> inputs = random_inputs(fusion, seed);
    std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
    ASSERT_EQ(actual.size(), expected.size());
    auto tolerance = [](DType dtype) {
      return is_floating(dtype) ? Tolerance{dtype == DType::BFloat16 ? 1.6e-2 : 1e-5, 1e-5} : Tolerance{0, 0};
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
