// Inlined reductions with their terms in a loop (LaunchParams::reduction_loop_unroll): random fusions with
// small reductions and the GQA RoPE backward through the host backend against the interpreter, the loop
// present in the generated source, and the same results as with every term written out.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "testing/random_fusion.h"
#include "text/printer.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using enum DType;

std::unique_ptr<Executable> compile_host(const Fusion& fusion, int unroll) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  options.launch.reduction_loop_unroll = unroll;
  return Executable::compile(fusion, options);
}

// Loops over an inlined reduction's terms (a persistent row kernel's loops over its iterations, also
// unrolled, are not counted: the line after their SEAM_UNROLL reads seam_it).
int loops_in(const Executable& exe) {
  int n = 0;
  for (const std::string& source : exe.sources())
    for (size_t at = source.find("SEAM_UNROLL("); at != std::string::npos;
         at = source.find("SEAM_UNROLL(", at + 1)) {
      const size_t line_end = source.find('\n', at);
      const std::string next_line = source.substr(line_end, source.find('\n', line_end + 1) - line_end);
      n += next_line.find("seam_it") == std::string::npos;
    }
  return n;
}

Tolerance tolerance(DType dtype) {
  if (dtype == Float32) return {1e-5, 1e-5};  // sums in f32 where the interpreter uses f64
  if (dtype == Float64) return {1e-5, 1e-6};
  return default_tolerance(dtype);
}

TEST(ReductionLoop, RandomFusionsWithInlinedReductionsMatchTheInterpreter) {
  RandomFusionOptions options;  // reductions over extents <= 4: small enough to be inlined
  options.opaque = false;
  int with_loops = 0;
  for (uint64_t seed = 300; seed < 340; ++seed) {
    const Fusion fusion = random_fusion(seed, options);
    auto written_out = compile_host(fusion, 0);
    EXPECT_EQ(loops_in(*written_out), 0);
    const std::vector<HostTensor> inputs = random_inputs(fusion, seed * 13 + 1);
    const std::vector<HostTensor> expected = interpret(fusion, inputs);
    const std::vector<HostTensor> reference = written_out->run(inputs);
    for (int unroll : {1, 3}) {
      auto looped = compile_host(fusion, unroll);
      with_loops += loops_in(*looped) > 0;
      const std::vector<HostTensor> actual = looped->run(inputs);
      const std::vector<Comparison> comparisons =
          compare_outputs(fusion, inputs, actual, expected, tolerance);
      for (size_t o = 0; o < expected.size(); ++o) {
        const Comparison& c = comparisons[o];
        EXPECT_TRUE(c.ok) << "seed " << seed << " unroll " << unroll << " output " << o << ": " << c.message
                          << "\n"
                          << print_fusion(fusion);
        // The same terms in the same order: bit for bit what the written-out sum gives.
        const Comparison same = compare_tensors(actual[o], reference[o], Tolerance{0, 0});
        EXPECT_TRUE(same.ok) << "seed " << seed << " unroll " << unroll << " output " << o << ": "
                             << same.message;
      }
    }
  }
  EXPECT_GT(with_loops, 15) << "the loop barely exercised";
}

// GQA RoPE backward: the head gradients' sums (qpk terms each) become loops, one kernel still.
TEST(ReductionLoop, GqaRopeBackwardMatchesTheInterpreter) {
  for (const char* id : {"W3", "W5"}) {
    RopeOptions rope;
    rope.batch = 2;
    rope.seq_len = 3;
    rope.contract = RopeContract::Thunder;
    rope.direction = Direction::Backward;
    const Fusion fusion = build_rope(rope_config(id), rope);
    auto exe = compile_host(fusion, 1);
    EXPECT_EQ(exe->steps().size(), 1u) << id;
    EXPECT_GE(loops_in(*exe), 2) << id;  // k's and v's gradients (per group member)
    const std::vector<HostTensor> inputs = random_inputs(fusion, 5);
    const std::vector<HostTensor> actual = exe->run(inputs), expected = interpret(fusion, inputs);
    const Comparison c = compare_tensors(actual[0], expected[0], default_tolerance(BFloat16));
    EXPECT_TRUE(c.ok) << id << ": " << c.message;
  }
}

}  // namespace
}  // namespace seam
