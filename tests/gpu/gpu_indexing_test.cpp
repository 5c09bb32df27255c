// Indexing ops on the GPU against the reference interpreter: the cross-entropy pick in a row kernel at
// vocabulary sizes, embedding rows as vectors, gathers along every axis, and indices out of range, which
// must raise seam::Error naming the op and the index (through run, run_device and run_into) without reading
// out of bounds: named GpuSuite.* so that scripts/gpu_check.sh also runs them under compute-sanitizer
// memcheck.
#include <gtest/gtest.h>

#include <random>

#include "device_tensors.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"

namespace seam {
namespace {

ExecutableOptions cuda() {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  return options;
}

HostTensor indices(DType dtype, const Shape& shape, int64_t extent, std::mt19937_64& rng) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  std::uniform_int_distribution<int64_t> pick(-extent, extent - 1);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, pick(rng));
  return t;
}

void expect_match(const std::string& what, const std::vector<HostTensor>& actual,
                  const std::vector<HostTensor>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison c = compare_tensors(actual[o], expected[o], default_tolerance(expected[o].dtype()));
    EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
  }
}

Fusion cross_entropy(int64_t rows, int64_t classes) {
  Builder b("cross_entropy");
  Value logits = b.input(Type::tensor(DType::BFloat16, {rows, classes}), "logits");
  Value targets = b.input(Type::tensor(DType::Int64, {rows}), "targets");
  Value x = b.cast(logits, DType::Float32);
  Value m = b.reduce(OpKind::Max, x, {1}, true);
  Value s = b.sum(b.exp(b.sub(x, b.expand(m, {rows, classes}))), {1}, true);
  Value lse = b.add(b.unary(OpKind::Log, s), m);
  return b.finish({{b.sub(lse, b.take_along_axis(x, b.broadcast(targets, {1}), 1)), "loss"}});
}

TEST(GpuSuite, IndexingCrossEntropyRowKernel) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(1);
  for (const auto& [rows, classes] :
       std::vector<std::pair<int64_t, int64_t>>{{16, 1000}, {64, 32000}, {3, 50257}}) {
    Fusion fusion = cross_entropy(rows, classes);
    auto exe = Executable::compile(fusion, cuda());
    EXPECT_EQ(exe->segmented().num_kernels(), 1);
    std::vector<HostTensor> inputs = {HostTensor::random(DType::BFloat16, {rows, classes}, rng),
                                      indices(DType::Int64, {rows}, classes, rng)};
    expect_match(fusion.name(), exe->run(inputs), interpret(fusion, inputs));
  }
}

TEST(GpuSuite, IndexingEmbeddingAndGathers) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(2);
  Builder b("lookups");
  Value table = b.input(Type::tensor(DType::BFloat16, {5000, 512}), "table");
  Value ids = b.input(Type::tensor(DType::Int32, {300}), "ids");
  Value scores = b.input(Type::tensor(DType::Float32, {64, 96, 40}), "scores");
  Value picks = b.input(Type::tensor(DType::Int64, {64, 96, 7}), "picks");
  Value rows = b.index_select(table, 0, ids);
  Value picked = b.gather(b.exp(scores), -1, picks);
  Value heads = b.take_along_axis(scores, b.input(Type::tensor(DType::Int32, {64, 5, 1}), "heads"), 1);
  Fusion fusion = b.finish({{rows, "rows"}, {picked, "picked"}, {heads, "heads"}});
  std::vector<HostTensor> inputs = {
      HostTensor::random(DType::BFloat16, {5000, 512}, rng), indices(DType::Int32, {300}, 5000, rng),
      HostTensor::random(DType::Float32, {64, 96, 40}, rng), indices(DType::Int64, {64, 96, 7}, 40, rng),
      indices(DType::Int32, {64, 5, 1}, 96, rng)};
  auto exe = Executable::compile(fusion, cuda());
  expect_match(fusion.name(), exe->run(inputs), interpret(fusion, inputs));
}

// A flip as the torch backend writes it (index_select at a descending iota) along each axis, vectors kept
// off the flipped axis: no index is checked, and the reads are the interpreter's.
TEST(GpuSuite, IndexingFlipAtADescendingIota) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(6);
  const Shape shape{33, 64, 136};
  for (int64_t axis = 0; axis < 3; ++axis) {
    Builder b("flip");
    Value x = b.input(Type::tensor(DType::BFloat16, shape), "x");
    const int64_t n = shape[static_cast<size_t>(axis)];
    Value positions = b.iota(n, DType::Int64, Number::of_int(n - 1), Number::of_int(-1));
    Value flipped = b.index_select(b.cast(x, DType::Float32), axis, positions);
    Fusion fusion = b.finish({{b.mul(flipped, b.cast(x, DType::Float32)), "out"}});
    auto exe = Executable::compile(fusion, cuda());
    EXPECT_EQ(exe->segmented().num_kernels(), 1);
    for (const CompiledStep& step : exe->steps()) EXPECT_FALSE(kir::checks_indices(step.kernel));
    std::vector<HostTensor> inputs = {HostTensor::random(DType::BFloat16, shape, rng)};
    expect_match(fusion.name() + std::to_string(axis), exe->run(inputs), interpret(fusion, inputs));
  }
}

TEST(GpuSuite, IndexingOutOfRangeIsAnErrorWithoutOutOfBoundsReads) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(3);
  Fusion fusion = cross_entropy(8, 100);
  auto exe = Executable::compile(fusion, cuda());
  HostTensor logits = HostTensor::random(DType::BFloat16, {8, 100}, rng);
  HostTensor bad = HostTensor::from_ints(DType::Int64, {8}, {0, 1, 2, 3, 1000000, 5, -101, 7});
  const std::string expected = "take_along_axis: index ";
  const Type& out_type = fusion.type(fusion.outputs()[0].value);
  for (int attempt = 0; attempt < 3; ++attempt) {  // run, run_device, then run_into (Python's path)
    try {
      if (attempt == 0) {
        exe->run({logits, bad});
      } else if (attempt == 1) {
        exe->run_device({to_device(logits), to_device(bad)}, nullptr);
      } else {
        const DeviceTensor out = to_device(HostTensor::zeros(out_type.dtype, out_type.shape));
        exe->run_into({to_device(logits), to_device(bad)}, {out}, nullptr);
      }
      ADD_FAILURE() << "no error for an index out of range (attempt " << attempt << ")";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(expected), std::string::npos) << message;
      EXPECT_NE(message.find("out of range for axis 1 of extent 100 (valid: -100 to 99)"), std::string::npos)
          << message;
    }
  }
  // The next run with good indices succeeds: the record is fresh per run.
  HostTensor good = indices(DType::Int64, {8}, 100, rng);
  expect_match(fusion.name(), exe->run({logits, good}), interpret(fusion, {logits, good}));
}

// run_into with caller scratch (what a run captured into a CUDA graph takes its intermediates, index
// record and workspaces from): the same results, and outside a capture an index out of range still raises.
TEST(GpuSuite, RunIntoCallerScratch) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(4);
  Fusion fusion = cross_entropy(8, 100);
  auto exe = Executable::compile(fusion, cuda());
  const size_t bytes = exe->scratch_bytes();
  ASSERT_GT(bytes, 0u);  // at least the index error record
  const DeviceTensor scratch =
      to_device(HostTensor::zeros(DType::Float32, {static_cast<int64_t>(bytes / 4 + 1)}));
  HostTensor logits = HostTensor::random(DType::BFloat16, {8, 100}, rng);
  HostTensor good = indices(DType::Int64, {8}, 100, rng);
  const Type& out_type = fusion.type(fusion.outputs()[0].value);
  const DeviceTensor out = to_device(HostTensor::zeros(out_type.dtype, out_type.shape));
  exe->run_into({to_device(logits), to_device(good)}, {out}, nullptr, RunScratch{scratch.data, bytes});
  check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
  expect_match(fusion.name(), {to_host(out)}, interpret(fusion, {logits, good}));
  HostTensor bad = HostTensor::from_ints(DType::Int64, {8}, {0, 1, 2, 3, 1000000, 5, -101, 7});
  EXPECT_THROW(
      exe->run_into({to_device(logits), to_device(bad)}, {out}, nullptr, RunScratch{scratch.data, bytes}),
      Error);
  EXPECT_THROW(
      exe->run_into({to_device(logits), to_device(good)}, {out}, nullptr, RunScratch{scratch.data, 8}),
      Error);  // less than scratch_bytes()
}

}  // namespace
}  // namespace seam
