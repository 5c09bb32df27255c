// scatter through segmentation, planning, code generation and the host backend, against the reference
// interpreter bit for bit (tests/testing/scatter_cases.h: every axis, index dtype and data dtype, scalar
// sources, intermediates, strided inputs, empty tensors, repeated indices), its place in the plan (a copy
// of the data into the output, then the scatter kernel, alone in its group), caller buffers, random
// fusions with scatters, and the error an index out of range raises.
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "testing/random_fusion.h"
#include "testing/scatter_cases.h"
#include "testing/whole_tool_check.h"

namespace seam {
namespace {

using testing_scatter::scatter_cases;

std::unique_ptr<Executable> compile_host(const Fusion& fusion) {
  ExecutableOptions options;
  options.backend = Backend::Host;
  options.poison_outputs = true;
  return Executable::compile(fusion, options);
}

// Scatter copies bits: its outputs are the interpreter's exactly. Outputs computed from it (a sigmoid)
// are compared at their dtype's tolerance.
void expect_same_bits(const std::vector<HostTensor>& actual, const std::vector<HostTensor>& expected,
                      const std::string& what, const Fusion* fusion = nullptr) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t o = 0; o < actual.size(); ++o) {
    EXPECT_EQ(actual[o].shape(), expected[o].shape()) << what << " output " << o;
    if (fusion && fusion->node(fusion->outputs()[o].value).op != OpKind::Scatter) {
      const Comparison c = compare_tensors(actual[o], expected[o], default_tolerance(expected[o].dtype()));
      EXPECT_TRUE(c.ok) << what << " output " << o << ": " << c.message;
      continue;
    }
    EXPECT_EQ(actual[o].contiguous().storage(), expected[o].contiguous().storage())
        << what << " output " << o;
  }
}

TEST(ScatterExecutable, HostBackendMatchesInterpreter) {
  for (const testing_scatter::ScatterCase& c : scatter_cases()) {
    SCOPED_TRACE(c.name);
    auto exe = compile_host(c.fusion);
    expect_same_bits(exe->run(c.inputs), interpret(c.fusion, c.inputs), c.name, &c.fusion);
  }
}

// Each scatter group is one kernel as the segmenter counts it, planned as the copy of its data into its
// output (a copy step of the group) followed by the scatter kernel.
TEST(ScatterExecutable, CopyOfTheDataThenTheScatterKernel) {
  for (const testing_scatter::ScatterCase& c : scatter_cases()) {
    SCOPED_TRACE(c.name);
    auto exe = compile_host(c.fusion);
    const std::vector<CompiledStep>& steps = exe->steps();
    int scatters = 0;
    for (size_t s = 0; s < steps.size(); ++s) {
      if (steps[s].kind != StepKind::Scatter) continue;
      ++scatters;
      ASSERT_GT(s, 0u);
      const Value written = steps[s].kernel_fusion.outputs.at(0);
      EXPECT_EQ(steps[s - 1].copy_of, written.id);
      EXPECT_EQ(steps[s - 1].kernel_fusion.outputs.at(0), written);
      EXPECT_EQ(steps[s].copy_of, -1);
      EXPECT_TRUE(kir::checks_indices(steps[s].kernel));
      EXPECT_EQ(steps[s].kernel.total_chunks(),
                steps[s]
                    .kernel_fusion.fusion
                    .type(steps[s]
                              .kernel_fusion.fusion.node(steps[s].kernel_fusion.fusion.outputs()[0].value)
                              .operands[1])
                    .numel());
    }
    int expected = 0;
    for (const Node& n : c.fusion.nodes()) expected += n.op == OpKind::Scatter;
    EXPECT_EQ(scatters, expected);
  }
}

TEST(ScatterExecutable, IntermediatesKeepTheirKernels) {
  for (const testing_scatter::ScatterCase& c : scatter_cases()) {
    if (c.name != "intermediates") continue;
    auto exe = compile_host(c.fusion);
    // mul and exp in one kernel, the scatter (its data copied by its group), the sigmoid after it.
    EXPECT_EQ(exe->segmented().num_kernels(), 3);
    int copies = 0;
    for (const CompiledStep& step : exe->steps()) copies += step.copy_of >= 0;
    EXPECT_EQ(copies, 2);  // the transposed index written out, the data copied into the output
  }
}

// A literal source is printed by the scatter kernel: no kernel writes it to memory first.
TEST(ScatterExecutable, ALiteralSourceCostsNoKernel) {
  for (const testing_scatter::ScatterCase& c : scatter_cases()) {
    if (c.name != "scalar_sources") continue;
    auto exe = compile_host(c.fusion);
    EXPECT_EQ(exe->segmented().num_kernels(), 3);  // the first scatter, the cast, the second scatter
    int literals = 0;
    for (const CompiledStep& step : exe->steps())
      literals += step.kernel.scatter && step.kernel.scatter->literal;
    EXPECT_EQ(literals, 1);
  }
}

TEST(ScatterExecutable, RunIntoCallerBuffersMatchesRun) {
  for (const testing_scatter::ScatterCase& c : scatter_cases()) {
    if (c.name != "intermediates" && c.name != "rows_f32" && c.name != "scalar_sources") continue;
    SCOPED_TRACE(c.name);
    auto exe = compile_host(c.fusion);
    std::vector<HostTensor> inputs = c.inputs;
    const std::vector<HostTensor> expected = exe->run(inputs);
    auto caller = [](HostTensor& t) {
      return DeviceTensor{reinterpret_cast<DevicePtr>(t.storage().data()), t.dtype(), t.shape(), t.strides(),
                          nullptr};
    };
    std::vector<HostTensor> outputs;
    for (const HostTensor& e : expected) outputs.push_back(HostTensor::zeros(e.dtype(), e.shape()));
    std::vector<DeviceTensor> in, out;
    for (HostTensor& t : inputs) in.push_back(caller(t));
    for (HostTensor& t : outputs) out.push_back(caller(t));
    exe->run_into(in, out, nullptr);
    expect_same_bits(outputs, expected, c.name, &c.fusion);
  }
}

TEST(ScatterExecutable, OutOfRangeIndexIsAnErrorNamingTheOp) {
  Builder b("bad_index");
  Value x = b.input(Type::tensor(DType::Float32, {3, 4}), "x");
  Value i = b.input(Type::tensor(DType::Int64, {2, 4}), "index");
  Value s = b.input(Type::tensor(DType::Float32, {2, 4}), "src");
  const Fusion fusion = b.finish({b.scatter(x, 0, i, s)});
  auto exe = compile_host(fusion);
  std::mt19937_64 rng(1);
  const HostTensor data = HostTensor::random(DType::Float32, {3, 4}, rng);
  const HostTensor src = HostTensor::random(DType::Float32, {2, 4}, rng);
  for (int64_t bad : {int64_t{3}, int64_t{-4}, int64_t{1} << 40}) {
    const HostTensor index = HostTensor::from_ints(DType::Int64, {2, 4}, {0, 1, 2, -1, 1, bad, 0, 2});
    try {
      exe->run({data, index, src});
      ADD_FAILURE() << "no error for index " << bad;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("scatter: index " + std::to_string(bad) +
                             " is out of range for axis 0 of extent 3 (valid: -3 to 2)"),
                std::string::npos)
          << message;
    }
  }
  // Good indices afterwards: the record is fresh per run.
  const HostTensor good = HostTensor::from_ints(DType::Int64, {2, 4}, {0, 1, 2, -1, 1, 2, 0, -3});
  expect_same_bits(exe->run({data, good, src}), interpret(fusion, {data, good, src}), "good after bad");
}

// Every stage of the tool (text round trip, passes, segmentation, both printers) on fusions whose indices
// are made inside them (in range), then the host backend against the interpreter.
TEST(ScatterExecutable, RandomFusionsWithScatters) {
  RandomFusionOptions options;
  options.scatters = true;
  options.opaque = false;
  int with_scatters = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Fusion fusion = random_fusion(seed, options);
    bool has_scatter = false;
    for (const Node& n : fusion.nodes()) has_scatter = has_scatter || n.op == OpKind::Scatter;
    if (!has_scatter) continue;
    ++with_scatters;
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_EQ(host_backend_disagreement(fusion), "");
  }
  EXPECT_GE(with_scatters, 8);
}

}  // namespace
}  // namespace seam
