// The interpreter and the comparison on many threads (support/parallel.h) give the bits, counts and
// messages of one thread: every element loop splits into contiguous chunks and every reduction folds
// one output's elements in order, so the thread count is invisible in the results.
#include <gtest/gtest.h>

#include <stdexcept>

#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "support/parallel.h"
#include "tensor/fast_random.h"
#include "testing/norm_backward.h"
#include "testing/random_fusion.h"
#include "workloads/rope.h"

namespace seam {
namespace {

std::vector<HostTensor> interpret_on(int threads, const Fusion& fusion,
                                     const std::vector<HostTensor>& inputs) {
  const ScopedWorkerThreads scoped(threads);
  return interpret(fusion, inputs);
}

void expect_same_bits_on_one_and_many_threads(const Fusion& fusion, uint64_t seed) {
  const std::vector<HostTensor> inputs = fast_random_inputs(fusion, seed);
  const std::vector<HostTensor> one = interpret_on(1, fusion, inputs), many = interpret_on(5, fusion, inputs);
  ASSERT_EQ(one.size(), many.size());
  for (size_t o = 0; o < one.size(); ++o) {
    ASSERT_EQ(one[o].storage().size(), many[o].storage().size()) << fusion.name() << " output " << o;
    EXPECT_TRUE(one[o].storage() == many[o].storage())
        << fusion.name() << " output " << o << " differs between 1 and 5 threads";
  }
}

TEST(InterpreterThreads, NormalizationBackwardsAndRopeGiveTheSameBits) {
  // Rows and columns reduced (dx's row sums, dw's column sums over the rows), f32 sums in double.
  expect_same_bits_on_one_and_many_threads(rmsnorm_backward(130, 520, DType::BFloat16), 1);
  expect_same_bits_on_one_and_many_threads(layernorm_backward(129, 384, DType::Float32), 2);
  RopeOptions rope;
  rope.batch = 2;
  rope.seq_len = 8;
  rope.direction = Direction::Backward;  // the GQA expanded copies sum
  expect_same_bits_on_one_and_many_threads(build_rope(rope_config("W3"), rope), 3);
}

TEST(InterpreterThreads, RandomFusionsGiveTheSameBits) {
  RandomFusionOptions options;
  options.max_extent = 40;  // values of up to ~10^5 elements: loops split into chunks
  options.opaque = true;
  options.random = true;
  int large = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const Fusion fusion = random_fusion(seed, options);
    for (const Node& node : fusion.nodes()) large += node.type.numel() >= (int64_t{1} << 15);
    expect_same_bits_on_one_and_many_threads(fusion, seed);
  }
  EXPECT_GT(large, 10);  // the fusions did split
}

TEST(InterpreterThreads, AnIndexOutOfRangeNamesTheFirstOneAsOnOneThread) {
  Builder b("gather_rows");
  Value x = b.input(Type::tensor(DType::Float32, {70000, 4}), "x");
  Value i = b.input(Type::tensor(DType::Int64, {70000, 1}), "i");
  Fusion fusion = b.finish({b.take_along_axis(x, i, 1)});
  std::vector<HostTensor> inputs = {HostTensor::zeros(DType::Float32, {70000, 4}),
                                    HostTensor::zeros(DType::Int64, {70000, 1})};
  inputs[1].set_int(40000, 9);  // two bad rows in different chunks: the first is reported
  inputs[1].set_int(65000, -7);
  auto message_on = [&](int threads) {
    try {
      interpret_on(threads, fusion, inputs);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string one = message_on(1);
  EXPECT_NE(one.find("index 9 is out of range"), std::string::npos) << one;
  EXPECT_EQ(message_on(5), one);
}

TEST(InterpreterThreads, ComparisonsCountAndPickTheWorstAsOnOneThread) {
  const int64_t n = 100000;
  HostTensor expected = HostTensor::zeros(DType::Float32, {n}),
             actual = HostTensor::zeros(DType::Float32, {n});
  for (int64_t k : {int64_t{5}, int64_t{40001}, int64_t{40002}, int64_t{99999}}) actual.set_double(k, 1.0);
  actual.set_double(70000, 2.0);  // the worst
  actual.set_double(80000, 2.0);  // as bad, later: not the worst
  Comparison one, many;
  {
    const ScopedWorkerThreads scoped(1);
    one = compare_tensors(actual, expected, Tolerance{1e-5, 1e-5});
  }
  {
    const ScopedWorkerThreads scoped(7);
    many = compare_tensors(actual, expected, Tolerance{1e-5, 1e-5});
  }
  EXPECT_EQ(one.mismatches, 6);
  EXPECT_EQ(one.first_mismatch, 5);
  EXPECT_NE(one.message.find("worst at [70000]"), std::string::npos) << one.message;
  EXPECT_EQ(many.mismatches, one.mismatches);
  EXPECT_EQ(many.first_mismatch, one.first_mismatch);
  EXPECT_EQ(many.max_abs_diff, one.max_abs_diff);
  EXPECT_EQ(many.message, one.message);
}

TEST(ParallelFor, CoversTheRangeOnceAndRethrowsTheLowestChunksError) {
  const ScopedWorkerThreads scoped(4);
  std::vector<int> seen(100000, 0);
  parallel_for(static_cast<int64_t>(seen.size()), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) ++seen[static_cast<size_t>(i)];
    // Nested loops run on the calling worker: no thread explosion, same coverage.
    parallel_for(10, [](int64_t, int64_t) {});
  });
  for (int v : seen) ASSERT_EQ(v, 1);
  try {
    parallel_for(100000, [](int64_t begin, int64_t end) {
      if (end > 30000) throw std::runtime_error("chunk from " + std::to_string(begin));
    });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "chunk from 25000");  // chunks of 25000: the second is the first to throw
  }
  const std::vector<int> squares = parallel_map(9, [](size_t i) { return static_cast<int>(i * i); });
  EXPECT_EQ(squares, (std::vector<int>{0, 1, 4, 9, 16, 25, 36, 49, 64}));
}

}  // namespace
}  // namespace seam
