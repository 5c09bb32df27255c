// Cross-entropy's gradient row kernels on the GPU (the backward alone, and the forward that also writes
// the gradient): poisoned outputs against the interpreter, one kernel each, persistent and streamed rows,
// peeled rows (odd vocabularies), clusters (long rows), rows whose target is ignore_index and -inf logits.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "runtime/cuda_driver.h"
#include "testing/cross_entropy.h"

namespace seam {
namespace {

void check(const Fusion& fusion, bool persistent) {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  options.segment.rules.limits.max_inlined_reduction = 0;
  options.launch.row_persistent = persistent;
  const Shape& shape = fusion.type(fusion.inputs()[0]).shape;
  const std::string what = fusion.name() + " " + shape_to_string(shape) + (persistent ? " persistent" : " streamed");
  auto exe = Executable::compile(fusion, options);
  ASSERT_EQ(exe->steps().size(), 1u) << what;
  ASSERT_TRUE(exe->steps()[0].kernel.rows.has_value()) << what;
  const std::vector<HostTensor> inputs = cross_entropy_inputs(fusion, 17);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> actual = exe->run(inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < expected.size(); ++o) {
    const Tolerance tolerance =
        expected[o].dtype() == DType::Float32 ? Tolerance{1e-5, 1e-5} : default_tolerance(expected[o].dtype());
    const Comparison c = compare_tensors(actual[o], expected[o], tolerance);
    EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
  }
}

TEST(GpuCrossEntropy, BackwardAndForwardBackward) {
  if (!driver_status().available) GTEST_SKIP() << driver_status().reason;
  const std::vector<std::pair<int64_t, int64_t>> shapes = {
      {1, 1},      {5, 7},      {4, 513},    {3, 4097},  {1, 4096},   {300, 4096},
      {64, 32000}, {48, 32064}, {32, 50257}, {8, 128256}, {4, 151936}, {2, 262144}};
  for (auto [m, n] : shapes)
    for (bool persistent : {true, false}) {
      check(cross_entropy_backward(m, n), persistent);
      check(cross_entropy_forward_backward(m, n), persistent);
    }
}

}  // namespace
}  // namespace seam
