// Whole fusions through passes, segmentation, code generation and the host backend, against the
// reference interpreter: every RoPE workload (small sizes) and random pointwise/movement fusions.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
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
  for (size_t o = 0; o < actual.size(); ++o) {
    DType dtype = expected[o].dtype();
    Tolerance tolerance =
        is_floating(dtype) ? Tolerance{dtype == DType::BFloat16 ? 1.6e-2 : 1e-5, 1e-5} : Tolerance{0, 0};
    Comparison c = compare_tensors(actual[o], expected[o], tolerance);
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

}  // namespace
}  // namespace seam
