// Indexing ops through passes, segmentation, code generation and the host backend (the same kernels as
// on the GPU), against the reference interpreter: random fusions, embedding rows read as vectors, the
// cross-entropy pick inside a row kernel, indices inside branch-free cat pieces, and the error an index
// out of range raises from a compiled kernel.
#include <gtest/gtest.h>
#include <link.h>

#include <random>
#include <string_view>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "testing/random_fusion.h"

namespace seam {
namespace {

std::unique_ptr<Executable> compile_host(const Fusion& fusion) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  return Executable::compile(fusion, options);
}

Tolerance indexing_tolerance(DType dtype) {
  return is_floating(dtype) ? Tolerance{dtype == DType::BFloat16 ? 1.6e-2 : 1e-5, 1e-5} : Tolerance{0, 0};
}

// Against the interpreter, ill-conditioned elements excused (compare_outputs).
void expect_same(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                 const std::vector<HostTensor>& actual) {
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  const std::vector<Comparison> comparisons =
      compare_outputs(fusion, inputs, actual, expected, indexing_tolerance);
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison& c = comparisons[o];
    EXPECT_TRUE(c.ok) << fusion.name() << " output " << o << ": " << c.message;
  }
}

// Random indices in [-extent, extent) (negative ones included) for an integer input.
HostTensor indices(DType dtype, const Shape& shape, int64_t extent, std::mt19937_64& rng) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  std::uniform_int_distribution<int64_t> pick(-extent, extent - 1);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, pick(rng));
  return t;
}

HostTensor random_data(DType dtype, const Shape& shape, std::mt19937_64& rng) {
  return HostTensor::random(dtype, shape, rng);
}

TEST(IndexingExecutable, RandomFusionsWithIndexingMatchTheInterpreter) {
  RandomFusionOptions options;
  options.opaque = false;
  options.indexing = true;
  options.num_ops = 16;
  int indexing_ops = 0;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Fusion fusion = random_fusion(seed, options);
    for (const Node& n : fusion.nodes()) indexing_ops += n.category() == OpCategory::Indexing;
    std::vector<HostTensor> inputs = random_inputs(fusion, seed);
    auto exe = compile_host(fusion);
    expect_same(fusion, inputs, exe->run(inputs));
  }
  EXPECT_GT(indexing_ops, 10);
}

TEST(IndexingExecutable, EmbeddingRowsAreReadAsVectors) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 4; ++trial) {
    const int64_t vocab = std::uniform_int_distribution<int64_t>(1, 50)(rng);
    const int64_t width = 8 * std::uniform_int_distribution<int64_t>(1, 6)(rng);
    const int64_t tokens = std::uniform_int_distribution<int64_t>(0, 20)(rng);
    const DType index_dtype = trial % 2 ? DType::Int32 : DType::Int64;
    Builder b("embedding");
    Value table = b.input(Type::tensor(DType::BFloat16, {vocab, width}), "table");
    Value ids = b.input(Type::tensor(index_dtype, {tokens}), "ids");
    Value rows = b.cast(b.index_select(table, 0, ids), DType::Float32);
    Fusion fusion = b.finish({{b.mul(rows, rows), "out"}});
    std::vector<HostTensor> inputs = {random_data(DType::BFloat16, {vocab, width}, rng),
                                      indices(index_dtype, {tokens}, vocab, rng)};
    auto exe = compile_host(fusion);
    EXPECT_EQ(exe->segmented().num_kernels(), 1);
    if (tokens > 0) {
      for (const CompiledStep& step : exe->steps())
        for (const kir::OutputProgram& p : step.kernel.outputs) EXPECT_GT(p.lanes, 1) << "vocab " << vocab;
    }
    expect_same(fusion, inputs, exe->run(inputs));
  }
}

TEST(IndexingExecutable, GatherOfAnExpressionAlongEveryAxis) {
  std::mt19937_64 rng(11);
  for (int64_t axis = -3; axis < 3; ++axis) {
    const Shape data{3, 5, 4};
    Shape index_shape{2, 5, 3};
    const size_t a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
    index_shape[a] = 6;
    Builder b("gather_axis");
    Value x = b.input(Type::tensor(DType::Float32, data), "x");
    Value y = b.input(Type::tensor(DType::Float32, data), "y");
    Value i = b.input(Type::tensor(DType::Int64, index_shape), "i");
    Value g = b.gather(b.exp(b.add(x, y)), axis, i);
    Fusion fusion = b.finish({{b.mul(g, g), "out"}});
    std::vector<HostTensor> inputs = {random_data(DType::Float32, data, rng),
                                      random_data(DType::Float32, data, rng),
                                      indices(DType::Int64, index_shape, data[a], rng)};
    auto exe = compile_host(fusion);
    EXPECT_EQ(exe->segmented().num_kernels(), 1) << "axis " << axis;
    expect_same(fusion, inputs, exe->run(inputs));
  }
}

// logits [M, V], targets [M] -> logsumexp(logits) - take_along_axis(logits, targets) [M, 1]: one row kernel.
Fusion cross_entropy(int64_t rows, int64_t classes, DType index_dtype) {
  Builder b("cross_entropy");
  Value logits = b.input(Type::tensor(DType::BFloat16, {rows, classes}), "logits");
  Value targets = b.input(Type::tensor(index_dtype, {rows}), "targets");
  Value x = b.cast(logits, DType::Float32);
  Value m = b.reduce(OpKind::Max, x, {1}, true);
  Value s = b.sum(b.exp(b.sub(x, b.expand(m, {rows, classes}))), {1}, true);
  Value lse = b.add(b.unary(OpKind::Log, s), m);
  Value picked = b.take_along_axis(x, b.broadcast(targets, {1}), 1);
  // [M, 1]: a squeeze of the row kernel's result would be a kernel of its own (the Normalization
  // predicate keeps movement of values computed from a reduction apart), indexing or not.
  return b.finish({{b.sub(lse, picked), "loss"}});
}

TEST(IndexingExecutable, CrossEntropyIsOneRowKernel) {
  std::mt19937_64 rng(3);
  for (const auto& [rows, classes] : std::vector<std::pair<int64_t, int64_t>>{{8, 100}, {33, 1000}, {1, 7}}) {
    const DType index_dtype = rows % 2 ? DType::Int32 : DType::Int64;
    Fusion fusion = cross_entropy(rows, classes, index_dtype);
    auto exe = compile_host(fusion);
    EXPECT_EQ(exe->segmented().num_kernels(), 1) << rows << "x" << classes;
    ASSERT_EQ(exe->steps().size(), 1u);
    // A row of 7 is reduced inline by a pointwise kernel (ScheduleLimits::max_inlined_reduction).
    EXPECT_EQ(exe->steps()[0].kernel.rows.has_value(), classes >= 100) << rows << "x" << classes;
    std::vector<HostTensor> inputs = {random_data(DType::BFloat16, {rows, classes}, rng),
                                      indices(index_dtype, {rows}, classes, rng)};
    expect_same(fusion, inputs, exe->run(inputs));
  }
}

// A reduction gathered at other rows cannot stay in its row kernel (the segmenter counts the second
// kernel, which the plan asserts); an index computed from a reduction can.
TEST(IndexingExecutable, GatherOfAReductionIsItsOwnKernel) {
  std::mt19937_64 rng(9);
  Builder b("gather_of_sum");
  Value x = b.input(Type::tensor(DType::Float32, {6, 16}), "x");
  Value ids = b.input(Type::tensor(DType::Int32, {6}), "ids");
  Value sums = b.sum(x, {1}, true);
  Value other_rows = b.index_select(sums, 0, ids);
  Fusion fusion = b.finish({{b.sub(b.expand(other_rows, {6, 16}), x), "out"}});
  std::vector<HostTensor> inputs = {random_data(DType::Float32, {6, 16}, rng),
                                    indices(DType::Int32, {6}, 6, rng)};
  auto exe = compile_host(fusion);
  EXPECT_EQ(exe->segmented().num_kernels(), 2);
  expect_same(fusion, inputs, exe->run(inputs));

  Builder c("index_from_max");
  Value y = c.input(Type::tensor(DType::Float32, {6, 16}), "y");
  Value position = c.cast(c.reduce(OpKind::Max, c.cast(y, DType::Int32), {1}, true), DType::Int64);
  Value picked = c.take_along_axis(y, position, 1);
  Fusion one = c.finish({{picked, "picked"}});
  HostTensor values = HostTensor::zeros(DType::Float32, {6, 16});
  for (int64_t k = 0; k < values.numel(); ++k) values.set_double(k, static_cast<double>((k * 7) % 16));
  auto exe_one = compile_host(one);
  EXPECT_EQ(exe_one->segmented().num_kernels(), 1);
  expect_same(one, {values}, exe_one->run({values}));
}

// A gather inside a branch-free cat piece: where the piece is not selected its index reads as zero, and
// zero - 20 must not count as an index out of range.
TEST(IndexingExecutable, IndicesOutsideTheirCatPieceReportNothing) {
  Builder b("cat_piece");
  Value x = b.input(Type::tensor(DType::Float32, {4, 8}), "x");
  Value i = b.input(Type::tensor(DType::Int64, {4, 3}), "i");
  Value y = b.input(Type::tensor(DType::Float32, {4, 5}), "y");
  Value shifted = b.sub(i, b.constant(Number::of_int(20), DType::Int64));
  Fusion fusion = b.finish({{b.cat({b.gather(x, 1, shifted), y}, 1), "out"}});
  std::mt19937_64 rng(5);
  HostTensor positions = indices(DType::Int64, {4, 3}, 8, rng);
  for (int64_t k = 0; k < positions.numel(); ++k) positions.set_int(k, positions.get_int(k) + 20);
  std::vector<HostTensor> inputs = {random_data(DType::Float32, {4, 8}, rng), positions,
                                    random_data(DType::Float32, {4, 5}, rng)};
  auto exe = compile_host(fusion);
  expect_same(fusion, inputs, exe->run(inputs));
}

// A flip as the torch backend writes it: index_select at a descending iota. Its positions are provably in
// range, so the kernel checks no index (no wait for an error record on the GPU); along any axis but the
// innermost it keeps its vectors, and an iota that leaves the range is still checked.
TEST(IndexingExecutable, IndexSelectAtAnIotaInRangeChecksNothing) {
  std::mt19937_64 rng(17);
  const Shape shape{6, 5, 16};
  for (int64_t axis = 0; axis < 3; ++axis) {
    const int64_t n = shape[static_cast<size_t>(axis)];
    for (const auto& [start, step] : std::vector<std::pair<int64_t, int64_t>>{{n - 1, -1}, {0, 1}, {n, -1}}) {
      SCOPED_TRACE("axis " + std::to_string(axis) + " start " + std::to_string(start));
      Builder b("flip");
      Value x = b.input(Type::tensor(DType::Float32, shape), "x");
      Value positions = b.iota(n, DType::Int64, Number::of_int(start), Number::of_int(step));
      Value flipped = b.index_select(b.mul(x, x), axis, positions);
      Fusion fusion = b.finish({{b.add(flipped, x), "out"}});
      auto exe = compile_host(fusion);
      EXPECT_EQ(exe->segmented().num_kernels(), 1);
      const bool in_range = start < n;
      for (const CompiledStep& step_ : exe->steps()) {
        EXPECT_EQ(kir::checks_indices(step_.kernel), !in_range);
        if (in_range && axis < 2) {
          for (const kir::OutputProgram& p : step_.kernel.outputs) EXPECT_GT(p.lanes, 1);
        }
      }
      const std::vector<HostTensor> inputs = {random_data(DType::Float32, shape, rng)};
      if (in_range) {
        expect_same(fusion, inputs, exe->run(inputs));
      } else {
        EXPECT_THROW(exe->run(inputs), Error);  // position n: out of range
      }
    }
  }
}

TEST(IndexingExecutable, OutOfRangeIndexIsAnErrorNamingOpAndIndex) {
  Fusion fusion = cross_entropy(4, 10, DType::Int64);
  auto exe = compile_host(fusion);
  std::mt19937_64 rng(1);
  for (int64_t bad : {int64_t{10}, int64_t{-11}, int64_t{1} << 40}) {
    HostTensor targets = HostTensor::from_ints(DType::Int64, {4}, {1, 2, bad, -1});
    try {
      exe->run({random_data(DType::BFloat16, {4, 10}, rng), targets});
      ADD_FAILURE() << "no error for index " << bad;
    } catch (const Error& e) {
      const std::string expected = "take_along_axis: index " + std::to_string(bad) +
                                   " is out of range for axis 1 of extent 10 (valid: -10 to 9)";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  // The same executable still runs good indices afterwards.
  HostTensor good = HostTensor::from_ints(DType::Int64, {4}, {0, 9, -10, -1});
  std::vector<HostTensor> inputs = {random_data(DType::BFloat16, {4, 10}, rng), good};
  expect_same(fusion, inputs, exe->run(inputs));
}

// The record travels as an argument, never as thread-local state of the module: the thread storage of a
// module unloaded later stayed in LeakSanitizer's exit scan, which crashed reading it (CI, 2026-12-02).
TEST(IndexingExecutable, HostModulesHoldNoThreadLocalStorage) {
  Fusion fusion = cross_entropy(4, 10, DType::Int64);
  auto exe = compile_host(fusion);
  std::mt19937_64 rng(2);
  HostTensor targets = HostTensor::from_ints(DType::Int64, {4}, {0, 1, 2, 3});
  exe->run({random_data(DType::BFloat16, {4, 10}, rng), targets});
  struct Seen {
    int modules = 0, with_tls = 0;
  } seen;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* seen = static_cast<Seen*>(data);
        if (info->dlpi_name == nullptr ||
            std::string_view(info->dlpi_name).find("seam-host-") == std::string_view::npos)
          return 0;
        ++seen->modules;
        for (int h = 0; h < info->dlpi_phnum; ++h) seen->with_tls += info->dlpi_phdr[h].p_type == PT_TLS;
        return 0;
      },
      &seen);
  EXPECT_GT(seen.modules, 0) << "no loaded host module found";
  EXPECT_EQ(seen.with_tls, 0);
}

}  // namespace
}  // namespace seam
