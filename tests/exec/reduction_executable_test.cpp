// Reduction and normalization kernels through the whole Executable (passes, segmentation, row kernels,
// host backend with poisoned outputs) against the reference interpreter: sum/max/min over every kind of
// axis set and dtype, NaN, empty extents, softmax, RMSNorm, the thunder GQA RoPE backward, the fallback
// steps for outputs a row kernel cannot write, and random fusions with reductions.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "testing/random_fusion.h"
#include "text/printer.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;

// Sums accumulate in f32 for f32 data (as on the GPU) where the interpreter uses f64.
Tolerance reduction_tolerance(DType dtype) {
  switch (dtype) {
    case Float32: return {1e-5, 1e-5};
    case Float64: return {1e-5, 1e-6};  // an f64 output may come from f32 math
    default: return default_tolerance(dtype);
  }
}

// Against the interpreter, ill-conditioned elements excused (compare_outputs).
void expect_outputs_match(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                          const std::vector<HostTensor>& actual, const std::string& context = "") {
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  const std::vector<Comparison> comparisons =
      compare_outputs(fusion, inputs, actual, expected, reduction_tolerance);
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison& c = comparisons[o];
    EXPECT_TRUE(c.ok) << fusion.name() << " output " << o << ": " << c.message << context;
  }
}

// These tests are about row kernels: small reductions stay reductions (not inlined into pointwise
// kernels) unless a test asks for the default limits.
std::unique_ptr<Executable> compile_host(const Fusion& fusion, bool inline_small_reductions = false,
                                         const LaunchParams& launch = {}) {
  ExecutableOptions options;
  options.launch = launch;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  if (!inline_small_reductions) options.segment.rules.limits.max_inlined_reduction = 0;
  // Which of the equal-kernel partitions is kept depends on the bytes proof finishing: give it time, so
  // that a slow (sanitizer) build segments as a Release build does. No test here times anything.
  options.segment.time_budget_seconds = 60;
  options.segment.bytes_time_budget_seconds = 60;
  return Executable::compile(fusion, options);
}

// Runs on the given inputs (random when empty) and compares; returns the executable for further checks.
std::unique_ptr<Executable> run_and_check(const Fusion& fusion, std::vector<HostTensor> inputs = {}) {
  if (inputs.empty()) inputs = random_inputs(fusion, 17);
  auto exe = compile_host(fusion);
  expect_outputs_match(fusion, inputs, exe->run(inputs), "\n" + print_fusion(fusion));
  return exe;
}

int row_kernels(const Executable& exe) {
  int count = 0;
  for (const CompiledStep& step : exe.steps()) count += step.kernel.rows.has_value();
  return count;
}

Fusion single_reduction(OpKind op, DType dtype, const Shape& shape, std::vector<int64_t> axes, bool keepdim) {
  Builder b("reduce");
  Value x = b.input(Type::tensor(dtype, shape), "x");
  return b.finish({b.reduce(op, x, std::move(axes), keepdim)});
}

// Inner, outer, middle, several and all axes, with and without keepdim: one fusion per op and dtype
// (a kernel per axis set, both keepdim variants in it, or per pair of complementary sets).
TEST(ReductionExecutable, EveryOpAxisSetAndDtype) {
  const std::vector<std::vector<int64_t>> axis_sets = {{2}, {0}, {1}, {0, 2}, {1, 2}, {0, 1, 2}};
  for (OpKind op : {OpKind::Sum, OpKind::Max, OpKind::Min})
    for (DType dtype : {BFloat16, Float32, Float64, Int32, Bool}) {
      SCOPED_TRACE(std::string(op_name(op)) + " " + std::string(dtype_name(dtype)));
      Builder b("reduce");
      Value x = b.input(Type::tensor(dtype, {3, 5, 7}), "x");
      std::vector<Value> outputs;
      for (const auto& axes : axis_sets)
        for (bool keepdim : {false, true}) outputs.push_back(b.reduce(op, x, axes, keepdim));
      auto exe = run_and_check(b.finish(outputs));
      // Floating sums pair up: a sum over the complementary axes is an outer reduction of the row
      // kernel that holds the innermost axis ({2} with {0, 1}, {1, 2} with {0}, {0, 2} with {1}).
      const size_t kernels =
          op == OpKind::Sum && (dtype == BFloat16 || dtype == Float32) ? 4 : axis_sets.size();
      EXPECT_EQ(row_kernels(*exe), static_cast<int>(kernels));
      EXPECT_EQ(exe->steps().size(), kernels);
    }
}

TEST(ReductionExecutable, LongRowsAndManyRows) {
  run_and_check(single_reduction(OpKind::Sum, Float32, {3, 1000}, {1}, false));
  run_and_check(single_reduction(OpKind::Max, BFloat16, {1000, 3}, {0}, true));
  run_and_check(single_reduction(OpKind::Min, Float32, {2, 300, 4}, {1}, false));
}

HostTensor tensor_of(DType dtype, const Shape& shape, const std::vector<double>& values) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i) t.set_double(static_cast<int64_t>(i), values[i]);
  return t;
}

TEST(ReductionExecutable, NanPropagatesThroughMaxAndMin) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  for (DType dtype : {Float32, BFloat16, Float64}) {
    HostTensor x = tensor_of(dtype, {3, 4}, {1, nan, 3, -inf, 5, 6, 7, 8, -inf, -inf, -inf, inf});
    Builder b("nan");
    Value in = b.input(Type::tensor(dtype, {3, 4}), "x");
    std::vector<Value> outputs;
    for (OpKind op : {OpKind::Max, OpKind::Min, OpKind::Sum})
      for (int64_t axis : {0, 1}) outputs.push_back(b.reduce(op, in, {axis}));
    Fusion fusion = b.finish(outputs);
    auto exe = compile_host(fusion);
    std::vector<HostTensor> actual = exe->run({x});
    expect_outputs_match(fusion, {x}, actual);
    for (size_t o : {1, 3}) {  // max and min over axis 1: only the row holding the NaN is NaN
      EXPECT_TRUE(std::isnan(actual[o].get_double(0)));
      EXPECT_FALSE(std::isnan(actual[o].get_double(1)));
    }
  }
}

// log(sum(exp(x - max))) + max: the max and the sum form an online pair (one exchange across the row's
// threads for f32 accumulators), whose shift keeps exp(-inf - -inf) out of the sum. Rows of NaN, of -inf
// only, with +inf and with -inf among finite values give what the fusion says (the interpreter),
// persistent and streamed, every dtype.
TEST(ReductionExecutable, OnlinePairsKeepNanAndInfinities) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const int64_t n = 300;
  std::vector<double> values;
  for (int64_t row = 0; row < 6; ++row)
    for (int64_t i = 0; i < n; ++i) {
      const double finite = std::sin(static_cast<double>(row * n + i)) * 4.0;
      switch (row) {
        case 0: values.push_back(finite); break;
        case 1: values.push_back(i == 17 ? nan : finite); break;
        case 2: values.push_back(-inf); break;
        case 3: values.push_back(i == n - 1 ? inf : finite); break;
        case 4: values.push_back(i % 3 == 0 ? -inf : finite); break;
        default: values.push_back(i == 5 ? 80.0 : -80.0); break;  // one element dominates
      }
    }
  for (DType dtype : {Float32, BFloat16, Float64})
    for (bool persistent : {true, false}) {
      Builder b("log_sum_exp");
      const Shape shape{6, n};
      Value x = b.input(Type::tensor(dtype, shape), "x");
      Value xf = dtype == BFloat16 ? b.cast(x, Float32) : x;
      Value m = b.reduce(OpKind::Max, xf, {1}, true);
      Value s = b.sum(b.exp(b.sub(xf, b.expand(m, {6, n}))), {1}, true);
      Fusion fusion = b.finish({b.add(b.unary(OpKind::Log, s), m)});
      LaunchParams launch;
      launch.row_persistent = persistent;
      auto exe = compile_host(fusion, false, launch);
      HostTensor input = tensor_of(dtype, shape, values);
      const std::vector<HostTensor> actual = exe->run({input});
      expect_outputs_match(fusion, {input}, actual, persistent ? " (persistent)" : " (streamed)");
      EXPECT_TRUE(std::isnan(actual[0].get_double(1)));
      EXPECT_TRUE(std::isnan(actual[0].get_double(2)));  // exp(-inf - -inf): the fusion's NaN, not -inf
      EXPECT_TRUE(std::isnan(actual[0].get_double(3)));  // exp(inf - inf), as PyTorch
      EXPECT_NEAR(actual[0].get_double(5), 80.0, 1e-3);
    }
}

TEST(ReductionExecutable, IntegerExtremesAndWrapping) {
  const double lowest = static_cast<double>(std::numeric_limits<int64_t>::min());
  Builder b("extremes");
  Value x = b.input(Type::tensor(Int64, {2, 3}), "x");
  Fusion fusion = b.finish({b.reduce(OpKind::Max, x, {1}), b.reduce(OpKind::Min, x, {1}), b.sum(x, {1})});
  HostTensor input = HostTensor::zeros(Int64, {2, 3});
  for (int64_t i = 0; i < 3; ++i) input.set_int(i, std::numeric_limits<int64_t>::min());  // max identity
  input.set_int(3, std::numeric_limits<int64_t>::max());
  input.set_int(4, 1);  // wraps the sum
  input.set_int(5, std::numeric_limits<int64_t>::max());
  auto exe = compile_host(fusion);
  std::vector<HostTensor> actual = exe->run({input});
  expect_outputs_match(fusion, {input}, actual);
  EXPECT_EQ(actual[0].get_double(0), lowest);
}

TEST(ReductionExecutable, EmptyExtents) {
  run_and_check(single_reduction(OpKind::Sum, Float32, {3, 0}, {1}, false));  // empty sums are 0
  run_and_check(single_reduction(OpKind::Sum, Int32, {0, 4}, {0, 1}, true));
  run_and_check(single_reduction(OpKind::Sum, BFloat16, {0, 4}, {1}, false));  // no rows
  run_and_check(single_reduction(OpKind::Max, Float32, {0, 4}, {1}, true));
}

Fusion softmax(DType dtype, const Shape& shape) {
  Builder b("softmax");
  Value x = b.input(Type::tensor(dtype, shape), "x");
  Value xf = b.cast(x, Float32);
  Value m = b.broadcast_to(b.reduce(OpKind::Max, xf, {-1}, true), shape);
  Value e = b.exp(b.sub(xf, m));
  Value s = b.broadcast_to(b.sum(e, {-1}, true), shape);
  return b.finish({b.cast(b.div(e, s), dtype)});
}

Fusion rms_norm(DType dtype, const Shape& shape) {
  Builder b("rms_norm");
  Value x = b.input(Type::tensor(dtype, shape), "x");
  Value w = b.input(Type::tensor(dtype, {shape.back()}), "w");
  Value xf = b.cast(x, Float32);
  Value mean =
      b.div(b.sum(b.mul(xf, xf), {-1}, true), b.constant(Number::of_float(double(shape.back())), Float32));
  Value r = b.unary(OpKind::Rsqrt, b.add(mean, b.constant(Number::of_float(1e-5), Float32)));
  Value y = b.mul(b.mul(xf, b.broadcast_to(r, shape)), b.broadcast_to(b.cast(w, Float32), shape));
  return b.finish({b.cast(y, dtype)});
}

TEST(ReductionExecutable, SoftmaxIsOneRowKernel) {
  for (DType dtype : {Float32, BFloat16})
    for (const Shape& shape : {Shape{6, 33}, Shape{2, 3, 128}, Shape{1, 1}}) {
      auto exe = run_and_check(softmax(dtype, shape));
      EXPECT_EQ(exe->steps().size(), 1u);
      EXPECT_EQ(row_kernels(*exe), 1);
    }
}

TEST(ReductionExecutable, RmsNormIsOneRowKernel) {
  for (DType dtype : {Float32, BFloat16})
    for (const Shape& shape : {Shape{5, 64}, Shape{2, 3, 48}}) {
      auto exe = run_and_check(rms_norm(dtype, shape));
      EXPECT_EQ(exe->steps().size(), 1u);
      EXPECT_EQ(row_kernels(*exe), 1);
    }
}

TEST(ReductionExecutable, ThunderGqaRopeBackward) {
  for (const char* name : {"W3", "W1", "W9"}) {
    RopeOptions options;
    options.batch = 2;
    options.seq_len = 3;
    options.contract = RopeContract::Thunder;
    options.direction = Direction::Backward;
    const RopeConfig& config = rope_config(name);
    Fusion fusion = build_rope(config, options);
    std::vector<HostTensor> inputs = random_inputs(fusion, 5);
    auto exe = compile_host(fusion);
    // bf16 outputs of f32 sums: one rounding step may land on the other side.
    std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
    for (size_t o = 0; o < actual.size(); ++o) {
      Comparison c = compare_tensors(actual[o], expected[o], default_tolerance(BFloat16));
      EXPECT_TRUE(c.ok) << fusion.name() << ": " << c.message;
    }
    if (config.n_query_groups != config.n_head) {
      EXPECT_EQ(row_kernels(*exe), 1) << fusion.name();
    }
  }
}

// y = x - max(x)ᵀ: the reduced tensor is read at another row, which a row kernel cannot do, so the
// segmenter keeps the permute out of the max's group (schedule/normalization_scheduler.h) and counts the
// two kernels that run: the row kernel (max and the aligned z), then a pointwise kernel reading the max
// from memory.
TEST(ReductionExecutable, TransposedReadOfAReductionGoesToAPointwiseKernel) {
  Builder b("transposed");
  Value x = b.input(Type::tensor(Float32, {4, 4}), "x");
  Value m = b.reduce(OpKind::Max, x, {1}, true);
  Value y = b.sub(x, b.expand(b.permute(m, {1, 0}), {4, 4}));
  Value z = b.sub(x, b.expand(m, {4, 4}));  // aligned: stays in the row kernel
  Fusion fusion = b.finish({y, z});
  auto exe = run_and_check(fusion);
  ASSERT_EQ(exe->segmented().num_kernels(), 2);
  ASSERT_EQ(exe->steps().size(), 2u);
  EXPECT_TRUE(exe->steps()[0].kernel.rows.has_value());
  EXPECT_FALSE(exe->steps()[1].kernel.rows.has_value());
}

// A reduction reading another at another row: a row kernel for the first, then one for the second that
// reads the first from memory and also computes the outputs. The segmenter's count is what launches.
TEST(ReductionExecutable, ReductionOfATransposedReductionIsTwoRowKernels) {
  Builder b("staged");
  Value x = b.input(Type::tensor(Float32, {4, 4}), "x");
  Value m = b.reduce(OpKind::Max, x, {1}, true);
  Value shifted = b.sub(x, b.expand(b.permute(m, {1, 0}), {4, 4}));
  Value s = b.sum(b.exp(shifted), {1}, true);
  Fusion fusion = b.finish({s, b.mul(shifted, b.expand(s, {4, 4}))});
  auto exe = run_and_check(fusion);
  ASSERT_EQ(exe->segmented().num_kernels(), 2);
  EXPECT_EQ(exe->steps().size(), 2u);
  EXPECT_EQ(row_kernels(*exe), 2);
}

// Per-row values computed from a reduction and squeezed or unsqueezed into the reduction's layout with or
// without keepdim (by squeeze, broadcast or reshape) are written by the row kernel itself: one launch,
// as the segmenter counts, and the values the interpreter computes.
TEST(ReductionExecutable, UnitAxisMovesOfRowValuesStayInTheRowKernel) {
  for (DType dtype : {Float32, BFloat16})
    for (const Shape& shape : {Shape{6, 40}, Shape{2, 3, 48}, Shape{1, 5, 16}}) {
      Builder b("unit_axis_moves");
      Value x = b.input(Type::tensor(dtype, shape), "x");
      const int64_t last = static_cast<int64_t>(shape.size()) - 1;
      Shape rows(shape.begin(), shape.end() - 1), with_unit = rows;
      with_unit.push_back(1);
      Value k = b.sum(x, {last}, true);
      Value twice = b.mul(k, b.constant(Number::of_float(2), Float64));
      Value squeezed = b.squeeze(twice, {last});  // y = squeeze(2 * sum(x, -1, keepdim))
      Value flat = b.reshape(twice, rows);        // the same as a reshape
      // mean(x, -1) as a frontend writes it, then arithmetic, unsqueezed by a reshape and expanded.
      Value mean = b.div(b.sum(x, {last}), b.constant(Number::of_float(double(shape.back())), Float64));
      Value centered = b.sub(x, b.expand(b.reshape(b.add(mean, squeezed), with_unit), shape));
      Fusion fusion = b.finish({squeezed, flat, centered});
      SCOPED_TRACE(print_fusion(fusion));
      auto exe = run_and_check(fusion);
      EXPECT_EQ(exe->segmented().num_kernels(), 1);
      EXPECT_EQ(exe->steps().size(), 1u);
      EXPECT_EQ(row_kernels(*exe), 1);
    }
}

// A sum without keepdim over the last axis of [1, M, M] is [1, M]; expanded to [M, M] it runs across the
// rows (row i reads every row's sum), which a row kernel cannot do: the row kernel writes the sums, a
// pointwise kernel expands them (the plan asserted before the predicate kept the expand apart).
TEST(ReductionExecutable, ExpandOfASumWithoutKeepdimAcrossTheRowsIsASecondKernel) {
  Builder b("across");
  Value x = b.input(Type::tensor(Float32, {1, 8, 8}), "x");
  Value y = b.input(Type::tensor(Float32, {8, 8}), "y");
  Fusion fusion = b.finish({b.add(b.expand(b.sum(x, {2}), {8, 8}), y)});
  auto exe = run_and_check(fusion);
  EXPECT_EQ(exe->segmented().num_kernels(), 2);
  EXPECT_EQ(row_kernels(*exe), 1);
}

// The segmenter puts unrelated outputs into a reduction kernel to save a launch: they run as chunk
// programs after the rows, in the same launch.
TEST(ReductionExecutable, UnrelatedOutputsOfOtherShapesShareTheLaunch) {
  Builder b("side_output");
  Value x = b.input(Type::tensor(Float32, {4, 6}), "x");
  Value z = b.input(Type::tensor(Float32, {3, 2}), "z");
  Value c = b.input(Type::scalar(Float32), "c");
  Fusion fusion = b.finish({b.sum(x, {1}), b.neg(z), b.mul(c, c)});
  auto exe = run_and_check(fusion, {});
  ASSERT_EQ(exe->segmented().num_kernels(), 1);
  ASSERT_EQ(exe->steps().size(), 1u);
  EXPECT_EQ(exe->steps()[0].kernel.outputs.size(), 2u);
}

// Matrix products are not generated: the host backend runs them with the reference routine.
TEST(ReductionExecutable, MatmulGroupsRunAsLibraryStepsOnTheHost) {
  Builder b("mm");
  Value a = b.input(Type::tensor(Float32, {2, 3}), "a");
  Value c = b.input(Type::tensor(Float32, {3, 4}), "c");
  Fusion fusion = b.finish({b.matmul(a, c)});
  auto exe = run_and_check(fusion, {});
  ASSERT_EQ(exe->steps().size(), 1u);
  EXPECT_TRUE(exe->steps()[0].library);
}

// With the default limits, reductions over a few elements are computed inside pointwise kernels.
TEST(ReductionExecutable, RandomFusionsWithInlinedSmallReductions) {
  RandomFusionOptions options;
  options.reductions = true;
  options.opaque = false;
  options.max_extent = 4;
  int inlined = 0;
  for (uint64_t seed = 300; seed < 360; ++seed) {
    Fusion fusion = random_fusion(seed, options);
    auto exe = compile_host(fusion, /*inline_small_reductions=*/true);
    for (const CompiledStep& step : exe->steps())
      for (int32_t id : exe->segmented().groups[step.group].nodes)
        inlined += !step.kernel.rows &&
                   op_info(exe->segmented().fusion.node(Value{id}).op).category == OpCategory::Reduction;
    std::vector<HostTensor> inputs = random_inputs(fusion, seed * 13 + 1);
    expect_outputs_match(fusion, inputs, exe->run(inputs),
                         "\nseed " + std::to_string(seed) + "\n" + print_fusion(fusion));
  }
  EXPECT_GT(inlined, 20);
}

// GQA RoPE backward (thunder): the sum over the qpk expanded copies is inlined, one pointwise kernel.
TEST(ReductionExecutable, ThunderGqaRopeBackwardIsOnePointwiseKernel) {
  RopeOptions options;
  options.batch = 2;
  options.seq_len = 3;
  options.contract = RopeContract::Thunder;
  options.direction = Direction::Backward;
  Fusion fusion = build_rope(rope_config("W3"), options);
  std::vector<HostTensor> inputs = random_inputs(fusion, 5);
  auto exe = compile_host(fusion, /*inline_small_reductions=*/true);
  EXPECT_EQ(exe->steps().size(), 1u);
  EXPECT_EQ(row_kernels(*exe), 0);
  std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
  Comparison c = compare_tensors(actual[0], expected[0], default_tolerance(BFloat16));
  EXPECT_TRUE(c.ok) << c.message;
}

// 80 seeds in four blocks of 20, separate tests so that ctest runs them side by side (the sanitized
// build spends minutes in seam's own passes on them).
class RandomFusionsWithReductions : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RandomFusionsWithReductions, MatchTheInterpreter) {
  RandomFusionOptions options;
  options.reductions = true;
  options.opaque = false;
  int with_reduction_kernels = 0;
  for (uint64_t seed = GetParam(); seed < GetParam() + 20; ++seed) {
    options.max_extent = seed % 3 == 0 ? 9 : 4;
    Fusion fusion = random_fusion(seed, options);
    std::unique_ptr<Executable> exe;
    try {
      exe = compile_host(fusion);
    } catch (const Error& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what() << "\n" << print_fusion(fusion);
      continue;
    }
    with_reduction_kernels += row_kernels(*exe) > 0;
    // The segmenter's count is what launches (products' operand copies aside; opaque ops are off here).
    EXPECT_EQ(exe->steps().size(), static_cast<size_t>(exe->segmented().num_kernels())) << "seed " << seed;
    std::vector<HostTensor> inputs = random_inputs(fusion, seed * 13 + 1);
    expect_outputs_match(fusion, inputs, exe->run(inputs),
                         "\nseed " + std::to_string(seed) + "\n" + print_fusion(fusion));
  }
  EXPECT_GT(with_reduction_kernels, 8);  // over 40 of the 80 before the split
  std::cout << with_reduction_kernels << " fusions with row kernels\n";
}

INSTANTIATE_TEST_SUITE_P(ReductionExecutable, RandomFusionsWithReductions, ::testing::Values(0, 20, 40, 60));

}  // namespace
}  // namespace seam
