// Cross-entropy's gradient row kernels (the training kinds of bench/reductions: the backward alone, and
// the forward that also writes the gradient from the same read of the logits) on the host backend with
// poisoned outputs against the reference interpreter: one kernel each; N = 1, odd N (peeled rows), N
// around the row layout's thresholds (vector widths, a thread's share, a block, a cluster, streamed
// rows), M = 1; rows whose target is ignore_index (their loss and gradient 0) and -inf logits.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "testing/cross_entropy.h"
#include "text/printer.h"

namespace seam {
namespace {

Tolerance tolerance(DType dtype) {
  if (dtype == DType::Float32) return {1e-5, 1e-5};
  return default_tolerance(dtype);
}

void check(const Fusion& fusion, bool persistent) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.launch.row_persistent = persistent;
  options.segment.rules.limits.max_inlined_reduction = 0;  // rows of a few elements too: a row kernel
  const Shape& shape = fusion.type(fusion.inputs()[0]).shape;
  const std::string context =
      fusion.name() + " " + shape_to_string(shape) + (persistent ? " persistent" : " streamed");
  auto exe = Executable::compile(fusion, options);
  ASSERT_EQ(exe->steps().size(), 1u) << context;
  ASSERT_TRUE(exe->steps()[0].kernel.rows.has_value()) << context;
  const std::vector<HostTensor> inputs = cross_entropy_inputs(fusion, 3);
  const std::vector<HostTensor> expected = interpret(fusion, inputs);
  const std::vector<HostTensor> actual = exe->run(inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    const Comparison c = compare_tensors(actual[o], expected[o], tolerance(expected[o].dtype()));
    EXPECT_TRUE(c.ok) << context << " output " << o << ": " << c.message;
  }
  // Ignored rows: exactly 0 (loss and every gradient element).
  const HostTensor& targets = inputs[1];
  const HostTensor& dlogits = actual.back();
  const int64_t n = shape[1];
  for (int64_t r = 0; r < shape[0]; ++r) {
    if (targets.get_int(r) != kIgnoreIndex) continue;
    for (int64_t j = 0; j < n; ++j) ASSERT_EQ(dlogits.get_double(r * n + j), 0.0) << context << " row " << r;
    if (actual.size() == 2) {
      ASSERT_EQ(actual[0].get_double(r), 0.0) << context << " row " << r;
    }
  }
}

// Rows of 1 and odd lengths (no vector divides them: peeled), around a vector's multiple, a thread's
// preferred share (512 elements in 8 threads), a block's registers, a cluster's rows and beyond what
// registers hold (streamed); one row and several.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1},    {6, 1},    {5, 7},     {5, 33},    {4, 511},   {4, 512},   {4, 513},    {1, 4096},
    {3, 4095}, {3, 4097}, {2, 32000}, {2, 32064}, {2, 50257}, {1, 65537}, {2, 131072}, {1, 262145}};

TEST(CrossEntropyGradient, Backward) {
  for (auto [m, n] : kShapes)
    for (bool persistent : {true, false}) check(cross_entropy_backward(m, n), persistent);
}

TEST(CrossEntropyGradient, ForwardAndBackward) {
  for (auto [m, n] : kShapes)
    for (bool persistent : {true, false}) check(cross_entropy_forward_backward(m, n), persistent);
}

}  // namespace
}  // namespace seam
