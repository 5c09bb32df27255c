// Whole fusions through passes, segmentation, code generation and the host backend, against the
// reference interpreter: every RoPE workload (small sizes) and random pointwise/movement fusions.
#include <gtest/gtest.h>

#include <cstring>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "testing/random_fusion.h"
#include "text/printer.h"
#include "workloads/rope.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

void expect_matches_interpreter(const Fusion& fusion, uint64_t seed, const Executable& exe,
                                std::vector<HostTensor> actual) {
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
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

void run_and_check(const Fusion& fusion, uint64_t seed) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  auto exe = Executable::compile(fusion, options);
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  expect_matches_interpreter(fusion, seed, *exe, exe->run(inputs));
}

TEST(HostExecutable, RopeForwardAllWorkloadsBothContracts) {
  for (const RopeConfig& config : rope_configs()) {
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
      RopeOptions options;
      options.batch = 1;
      options.seq_len = 4;
      options.contract = contract;
      Fusion fusion = build_rope(config, options);
      ExecutableOptions exe_options;
      auto exe = Executable::compile(fusion, exe_options);
      EXPECT_EQ(exe->segmented().num_kernels(), 1) << fusion.name();
      // Every RoPE output is produced with 16-byte vectors (8 bf16 lanes) or is a view.
      for (const CompiledStep& step : exe->steps())
        for (const kir::OutputProgram& p : step.kernel.outputs) EXPECT_EQ(p.lanes, 8) << fusion.name();
      std::vector<HostTensor> inputs = random_inputs(fusion, 11);
      expect_matches_interpreter(fusion, 11, *exe, exe->run(inputs));
    }
  }
}

TEST(HostExecutable, RopeBackwardWithoutReductions) {
  for (const RopeConfig& config : rope_configs()) {
    RopeOptions options;
    options.batch = 2;
    options.seq_len = 3;
    options.contract = RopeContract::RopeOnly;
    options.direction = Direction::Backward;
    run_and_check(build_rope(config, options), 5);
  }
}

TEST(HostExecutable, RandomPointwiseFusions) {
  RandomFusionOptions options;
  options.reductions = false;
  options.opaque = false;
  for (uint64_t seed = 0; seed < 20; ++seed) run_and_check(random_fusion(seed, options), seed + 100);
}

TEST(HostExecutable, WrongInputsAreRejectedBeforeRunning) {
  RopeOptions options;
  options.batch = 1;
  options.seq_len = 2;
  Fusion fusion = build_rope(rope_config("W7"), options);
  auto exe = Executable::compile(fusion, ExecutableOptions{});
  std::vector<HostTensor> inputs = random_inputs(fusion, 1);
  std::vector<HostTensor> fewer(inputs.begin(), inputs.end() - 1);
  EXPECT_THROW(exe->run(fewer), Error);
  std::vector<HostTensor> wrong_dtype = inputs;
  wrong_dtype[1] = HostTensor::zeros(DType::Float32, inputs[1].shape());
  try {
    exe->run(wrong_dtype);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 1 ('cos'): expected bf16"), std::string::npos) << e.what();
  }
  std::vector<HostTensor> wrong_shape = inputs;
  wrong_shape[0] = HostTensor::zeros(DType::BFloat16, {1, 2, 7});
  EXPECT_THROW(exe->run(wrong_shape), Error);
}

// Values past 2^31 elements that no input or output reaches: the kernel's index arithmetic must still be
// 64-bit (an iota's element index, a pad's shifted index), or the last elements wrap.
TEST(HostExecutable, IndicesOfLargeIntermediatesDoNotWrap) {
  const int64_t n = (int64_t{1} << 31) + 8;
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  for (DType dtype : {DType::Int64, DType::Float64}) {
    Builder b("iota_tail");
    const Value tail = b.slice_axis(b.iota(n, dtype), 0, n - 4, n);
    auto exe = Executable::compile(b.finish({tail}), options);
    EXPECT_EQ(exe->run({})[0].to_doubles(),
              (std::vector<double>{2147483652.0, 2147483653.0, 2147483654.0, 2147483655.0}))
        << dtype_name(dtype);
  }
  Builder b("pad_tail");
  Value x = b.input(Type::tensor(DType::Int64, {4}), "x");
  const Value tail = b.slice_axis(b.pad(x, {n - 4}, {0}, Number::of_int(-1)), 0, n - 6, n);
  auto exe = Executable::compile(b.finish({tail}), options);
  EXPECT_EQ(exe->run({HostTensor::from_ints(DType::Int64, {4}, {10, 11, 12, 13})})[0].to_ints(),
            (std::vector<int64_t>{-1, -1, 10, 11, 12, 13}));
}

}  // namespace
}  // namespace seam

namespace seam {
namespace {

// The transformer stack has every kind of group: pointwise (RoPE, SwiGLU), normalization (RMSNorm,
// softmax) and matrix products, which the host backend runs with the reference routine.
TEST(HostExecutable, TransformerLayersEveryKernelKind) {
  TransformerConfig config;
  config.hidden = 64;
  config.n_head = 4;
  config.n_query_groups = 2;
  config.head_size = 16;
  config.intermediate = 96;
  config.seq_len = 8;
  config.layers = 2;
  Fusion fusion = build_transformer_stack(config);
  ExecutableOptions options;
  auto exe = Executable::compile(fusion, options);
  int library = 0, rows = 0;
  for (const CompiledStep& step : exe->steps()) {
    library += step.library;
    rows += step.kernel.rows.has_value();
  }
  EXPECT_GT(library, 0);
  EXPECT_GT(rows, 0);
  std::vector<HostTensor> inputs = random_inputs(fusion, 3);
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  std::vector<HostTensor> actual = exe->run(inputs);
  Comparison c = compare_tensors(actual[0], expected[0], Tolerance{3e-2, 3e-2});
  EXPECT_TRUE(c.ok) << c.message;
}

DeviceTensor caller_tensor(HostTensor& t) {
  return {reinterpret_cast<DevicePtr>(t.storage().data()), t.dtype(), t.shape(), t.strides(), nullptr};
}

// run_into on the caller's memory gives what run gives: Computed outputs byte for byte in the caller's
// buffers, View outputs at the routed place of the input's memory, Same outputs routed to an earlier one.
struct Covered {
  int views = 0, library_steps = 0;
};

void expect_run_into_matches_run(const Fusion& fusion, uint64_t seed, Covered& covered) {
  auto exe = Executable::compile(fusion, ExecutableOptions{});
  for (const CompiledStep& step : exe->steps()) covered.library_steps += step.library ? 1 : 0;
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  const std::vector<HostTensor> expected = exe->run(inputs);
  std::vector<DeviceTensor> in;
  for (HostTensor& x : inputs) in.push_back(caller_tensor(x));
  const std::vector<OutputRoute>& routes = exe->output_routes();
  ASSERT_EQ(routes.size(), expected.size());
  std::vector<HostTensor> buffers(routes.size());
  std::vector<DeviceTensor> out(routes.size());
  for (size_t o = 0; o < routes.size(); ++o) {
    if (routes[o].kind != OutputRoute::Kind::Computed) continue;
    buffers[o] = HostTensor::zeros(expected[o].dtype(), expected[o].shape());
    out[o] = caller_tensor(buffers[o]);
  }
  exe->run_into(in, out, nullptr);
  for (size_t o = 0; o < routes.size(); ++o) {
    const HostTensor& want = expected[o];
    const int size = dtype_size(want.dtype());
    switch (routes[o].kind) {
      case OutputRoute::Kind::Computed:
        EXPECT_EQ(buffers[o].storage(), want.storage()) << fusion.name() << " output " << o;
        break;
      case OutputRoute::Kind::Same: EXPECT_LT(routes[o].output, o); break;
      case OutputRoute::Kind::View: {
        ++covered.views;
        const StridedLayout& layout = routes[o].layout;
        ASSERT_EQ(layout.shape, want.shape()) << fusion.name() << " output " << o;
        const HostTensor& base = inputs[routes[o].input];
        Shape index(layout.shape.size(), 0);
        for (int64_t e = 0; e < want.numel(); ++e) {
          int64_t offset = layout.offset;
          for (size_t d = 0; d < index.size(); ++d) offset += index[d] * layout.strides[d];
          EXPECT_EQ(std::memcmp(base.storage().data() + offset * size, want.storage().data() + e * size,
                                static_cast<size_t>(size)),
                    0)
              << fusion.name() << " output " << o << " element " << e;
          for (size_t d = index.size(); d-- > 0;) {
            if (++index[d] < layout.shape[d]) break;
            index[d] = 0;
          }
        }
        break;
      }
    }
  }
}

TEST(HostExecutable, RunIntoCallerMemoryMatchesRun) {
  Covered covered;
  for (uint64_t seed = 0; seed < 12; ++seed)
    expect_run_into_matches_run(random_fusion(seed, {}), seed + 7, covered);
  RopeOptions options;
  options.batch = 1;
  options.seq_len = 3;
  for (const char* config : {"W1", "W3"})
    expect_run_into_matches_run(build_rope(rope_config(config), options), 3, covered);
  EXPECT_GT(covered.views, 0);  // RoPE W1's v
  EXPECT_GT(covered.library_steps, 0) << "no random fusion had a matrix product";
}

// docs/IR.md, "Compute dtype": next to a half tensor a scalar converts straight to f32 (no cancellation
// to 0 in x - 0.1 where x is 0.1 rounded to bf16), a tensor of another dtype first to the half type
// (i32 2049 is f16 2048), where's branches to its result dtype. Bit for bit against the interpreter.
TEST(HostExecutable, HalfOperandConversionsMatchTheInterpreterExactly) {
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {2}), "x");
  Value i = b.input(Type::tensor(DType::Int32, {2}), "i");
  Value h = b.input(Type::tensor(DType::Float16, {2}), "h");
  Value c = b.input(Type::tensor(DType::Bool, {2}), "c");
  Value tenth = b.constant(Number::of_float(0.1), DType::Float64);
  Value third = b.constant(Number::of_float(1.0 / 3.0), DType::Float64);
  Fusion fusion = b.finish({b.sub(x, tenth), b.binary(OpKind::Gt, x, tenth), b.add(i, h), b.sub(h, i),
                            b.where(c, x, third), b.add(b.where(c, i, h), tenth)});
  const std::vector<HostTensor> inputs = {HostTensor::from_doubles(DType::BFloat16, {2}, {0.10009765625, 3}),
                                          HostTensor::from_ints(DType::Int32, {2}, {2049, -4097}),
                                          HostTensor::from_doubles(DType::Float16, {2}, {1, 0.5}),
                                          HostTensor::from_ints(DType::Bool, {2}, {0, 1})};
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  auto exe = Executable::compile(fusion, options);
  std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    Comparison cmp = compare_tensors(actual[o], expected[o], Tolerance{0, 0});
    EXPECT_TRUE(cmp.ok) << "output " << o << ": " << cmp.message;
  }
  EXPECT_NE(expected[0].get_double(0), 0.0);  // the cancellation kept its f32 difference
  EXPECT_EQ(expected[1].to_ints(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(expected[2].get_double(0), 2048);  // f16(2049) + 1 = 2049, a tie to even
}

}  // namespace
}  // namespace seam
