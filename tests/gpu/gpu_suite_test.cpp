// The GPU suite: generated kernels on the GPU against the reference interpreter, with fresh random inputs
// and outputs poisoned before each run. Run by scripts/gpu_check.sh on a GPU machine (also under
// compute-sanitizer); every test skips when no GPU is present.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "runtime/cuda_driver.h"
#include "support/error.h"
#include "support/parallel.h"
#include "tensor/fast_random.h"
#include "testing/random_fusion.h"
#include "text/printer.h"
#include "workloads/rope.h"

namespace seam {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason

bool quick() { return std::getenv("SEAM_GPU_QUICK") != nullptr; }

// inline_small_reductions false: reductions stay row kernels even over a few elements.
ExecutableOptions cuda_options(bool inline_small_reductions = true) {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  if (!inline_small_reductions) options.segment.rules.limits.max_inlined_reduction = 0;
  return options;
}

Tolerance tolerance_for(DType dtype) {
  switch (dtype) {
    case DType::Float32:
    case DType::Float64: return {1e-5, 1e-6};  // GPU float math (exp, tanh, ...) against double rounded
    default: return default_tolerance(dtype);
  }
}

// Against the interpreter, ill-conditioned elements excused (compare_outputs).
void check_outputs(const std::string& what, const Fusion& fusion, const std::vector<HostTensor>& inputs,
                   const std::vector<HostTensor>& actual) {
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  const std::vector<Comparison> comparisons =
      compare_outputs(fusion, inputs, actual, expected, tolerance_for);
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison& c = comparisons[o];
    EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
  }
}

TEST(GpuSuite, RandomPointwiseFusions) {
  SKIP_WITHOUT_GPU();
  RandomFusionOptions options;
  options.reductions = false;
  options.opaque = false;
  options.special_values = true;
  const size_t count = quick() ? 10 : 120;
  std::vector<Fusion> fusions;
  for (size_t k = 0; k < count; ++k) {
    options.max_extent = k % 2 ? 16 : 4;
    fusions.push_back(random_fusion(7000 + k, options));
  }
  auto exes = parallel_map(count, [&](size_t k) {
    return Executable::compile(fusions[k], cuda_options(/*inline_small_reductions=*/k % 2 == 0));
  });
  for (size_t k = 0; k < count; ++k) {
    std::vector<HostTensor> inputs = random_inputs(fusions[k], (7000 + k) * 31);
    check_outputs(fusions[k].name(), fusions[k], inputs, exes[k]->run(inputs));
  }
}

TEST(GpuSuite, RopeSmallAllWorkloads) {
  SKIP_WITHOUT_GPU();
  std::vector<Fusion> fusions;
  std::vector<Direction> directions;
  for (const RopeConfig& config : rope_configs()) {
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
      for (Direction direction : {Direction::Forward, Direction::Backward}) {
        RopeOptions options;
        options.batch = 2;
        options.seq_len = 8;
        options.contract = contract;
        options.direction = direction;
        fusions.push_back(build_rope(config, options));
        directions.push_back(direction);
      }
    }
  }
  ASSERT_EQ(fusions.size(), 36u);
  auto exes =
      parallel_map(fusions.size(), [&](size_t i) { return Executable::compile(fusions[i], cuda_options()); });
  for (size_t i = 0; i < fusions.size(); ++i) {
    // The GQA thunder backward sums the expanded copies: a row kernel.
    if (directions[i] == Direction::Forward) {
      EXPECT_EQ(exes[i]->segmented().num_kernels(), 1) << fusions[i].name();
    }
    std::vector<HostTensor> inputs = random_inputs(fusions[i], 99);
    check_outputs(fusions[i].name(), fusions[i], inputs, exes[i]->run(inputs));
  }
}

// Reduction kernels (row kernels, docs/CODEGEN.md "Reductions") on the GPU: random fusions with
// reductions, then every block layout (threads per row 1, < 32, 32, > 32; threads of a row consecutive
// or strided) at sizes where the blocks hold several rows and the grid loops.
TEST(GpuSuite, RandomReductionFusions) {
  SKIP_WITHOUT_GPU();
  RandomFusionOptions options;
  options.reductions = true;
  options.opaque = false;
  options.special_values = true;
  const size_t count = quick() ? 10 : 120;
  std::vector<uint64_t> seeds;
  std::vector<Fusion> fusions;
  for (size_t k = 0; k < count; ++k) {
    // Seed 9114 has a kernel reading a scalar that an earlier kernel computed (scalars reach kernels
    // through device memory); the quick mode keeps it.
    seeds.push_back(quick() && k == 0 ? 9114 : 9000 + k);
    options.max_extent = seeds.back() % 2 ? 16 : 4;
    fusions.push_back(random_fusion(seeds.back(), options));
  }
  auto exes = parallel_map(count, [&](size_t k) {
    return Executable::compile(fusions[k], cuda_options(/*inline_small_reductions=*/k % 2 == 0));
  });
  for (size_t k = 0; k < count; ++k) {
    std::vector<HostTensor> inputs = random_inputs(fusions[k], seeds[k] * 31);
    check_outputs(fusions[k].name(), fusions[k], inputs, exes[k]->run(inputs));
  }
}

TEST(GpuSuite, ReductionLayouts) {
  SKIP_WITHOUT_GPU();
  const std::vector<std::pair<Shape, std::vector<int64_t>>> cases = {
      {{300, 4096}, {1}}, {{5000, 40}, {1}},         {{3000, 5}, {1}}, {{4096, 64}, {0}},
      {{7, 5000}, {0}},   {{2, 8, 4, 33, 128}, {2}}, {{70000}, {0}},   {{9, 700, 3}, {0, 2}}};
  std::vector<Fusion> fusions;
  for (const auto& [shape, axes] : cases)
    for (DType dtype : {DType::BFloat16, DType::Float32, DType::Int32}) {
      Builder b("layout");
      Value x = b.input(Type::tensor(dtype, shape), "x");
      fusions.push_back(
          b.finish({b.sum(x, axes, true), b.reduce(OpKind::Max, x, axes), b.reduce(OpKind::Min, x, axes)}));
    }
  // Softmax and RMSNorm over long rows, bf16.
  for (int64_t n : {64, 1000, 4096}) {
    Builder b("softmax_rmsnorm_n" + std::to_string(n));
    const Shape shape = {37, n};
    Value x = b.input(Type::tensor(DType::BFloat16, shape), "x");
    Value xf = b.cast(x, DType::Float32);
    Value e = b.exp(b.sub(xf, b.broadcast_to(b.reduce(OpKind::Max, xf, {1}, true), shape)));
    Value softmax = b.cast(b.div(e, b.broadcast_to(b.sum(e, {1}, true), shape)), DType::BFloat16);
    Value ms =
        b.div(b.sum(b.mul(xf, xf), {1}, true), b.constant(Number::of_float(double(n)), DType::Float32));
    Value rms = b.cast(b.mul(xf, b.broadcast_to(b.unary(OpKind::Rsqrt, ms), shape)), DType::BFloat16);
    fusions.push_back(b.finish({softmax, rms}));
  }
  const size_t layouts = cases.size() * 3;
  auto exes = parallel_map(fusions.size(), [&](size_t i) {
    return Executable::compile(fusions[i], cuda_options(/*inline_small_reductions=*/i >= layouts));
  });
  for (size_t i = layouts; i < fusions.size(); ++i) {
    std::vector<HostTensor> inputs = random_inputs(fusions[i], 6);
    check_outputs(fusions[i].name(), fusions[i], inputs, exes[i]->run(inputs));
  }
  size_t i = 0;
  for (const auto& [shape, axes] : cases)
    for (DType dtype : {DType::BFloat16, DType::Float32, DType::Int32}) {
      const Fusion& fusion = fusions[i];
      Executable* exe = exes[i++].get();
      std::vector<HostTensor> inputs = fast_random_inputs(fusion, 5);
      std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
      for (size_t o = 0; o < actual.size(); ++o) {
        // Long f32 sums: f32 partial sums on the GPU, exact in the interpreter.
        Tolerance tolerance =
            o == 0 && dtype == DType::Float32 ? Tolerance{1e-4, 1e-4} : tolerance_for(dtype);
        Comparison c = compare_tensors(actual[o], expected[o], tolerance);
        EXPECT_TRUE(c.ok) << shape_to_string(shape) << " " << dtype_name(dtype) << " output " << o << ": "
                          << c.message;
      }
    }
}

// Full-size RoPE on the GPU, checked on sampled (batch, position) rows: every output row depends only on
// the qkv row and the cos/sin rows of its position, so a one-position instance of the same workload on the
// interpreter is the reference for that row.
TEST(GpuSuite, RopeFullSizeSampledRows) {
  SKIP_WITHOUT_GPU();
  std::vector<std::pair<RopeConfig, RopeOptions>> rows;
  for (const RopeConfig& config : rope_configs()) {
    if (quick() && config.name != "Llama-2-13b-hf") continue;
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly}) {
      RopeOptions options;
      options.batch = 2;
      options.contract = contract;
      rows.emplace_back(config, options);
    }
  }
  auto exes = parallel_map(rows.size(), [&](size_t i) {
    return Executable::compile(build_rope(rows[i].first, rows[i].second), cuda_options());
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [config, options] = rows[i];
    Fusion fusion = build_rope(config, options);
    Executable* exe = exes[i].get();
    ASSERT_EQ(exe->segmented().num_kernels(), 1) << fusion.name();
    std::vector<HostTensor> inputs = fast_random_inputs(fusion, 2024);
    std::vector<HostTensor> outputs = exe->run(inputs);

    RopeOptions row_options = options;
    row_options.batch = 1;
    row_options.seq_len = 1;
    Fusion row = build_rope(config, row_options);
    const int64_t T = config.block_size, C = inputs[0].shape()[2], n = inputs[1].shape()[1];
    for (int64_t sample = 0; sample < 12; ++sample) {
      const int64_t b = sample % 2, t = sample < 4 ? sample : (T - 1 - sample * 977 % T + T) % T;
      std::vector<HostTensor> row_inputs = random_inputs(row, 1);
      for (int64_t c = 0; c < C; ++c) row_inputs[0].set_double(c, inputs[0].get_double((b * T + t) * C + c));
      for (int64_t d = 0; d < n; ++d) {
        row_inputs[1].set_double(d, inputs[1].get_double(t * n + d));
        row_inputs[2].set_double(d, inputs[2].get_double(t * n + d));
      }
      std::vector<HostTensor> expected = interpret(row, row_inputs);
      for (size_t o = 0; o < outputs.size(); ++o) {
        // Output [B, H, T, hs]: row (b, t) is H runs of hs elements.
        const Shape& shape = outputs[o].shape();
        const int64_t H = shape[1], hs = shape[3];
        HostTensor actual = HostTensor::zeros(outputs[o].dtype(), expected[o].shape());
        for (int64_t h = 0; h < H; ++h)
          for (int64_t d = 0; d < hs; ++d)
            actual.set_double(h * hs + d, outputs[o].get_double(((b * H + h) * T + t) * hs + d));
        Comparison c = compare_tensors(actual, expected[o], tolerance_for(DType::BFloat16));
        EXPECT_TRUE(c.ok) << fusion.name() << " output " << o << " at b=" << b << " t=" << t << ": "
                          << c.message;
      }
    }
  }
}

}  // namespace
}  // namespace seam
