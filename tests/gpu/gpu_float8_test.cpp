// f8 casts and movement on the GPU, bit for bit against the interpreter (tests/testing/float8_cases.h):
// the software conversions of support/float8.h under NVRTC, 1-byte elements in wide vectors. Named
// GpuSuite.* so that scripts/gpu_check.sh also runs it under compute-sanitizer memcheck.
#include <gtest/gtest.h>

#include "device_tensors.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "testing/float8_cases.h"

namespace seam {
namespace {

TEST(GpuSuite, Float8CastsMatchInterpreterBitForBit) {
  SKIP_WITHOUT_GPU();
  for (const Fusion& fusion : testing_float8::float8_fusions()) {
    SCOPED_TRACE(fusion.name());
    ExecutableOptions options;
    options.backend = Backend::Cuda;
    options.poison_outputs = true;
    auto exe = Executable::compile(fusion, options);
    const std::vector<HostTensor> inputs = testing_float8::float8_inputs(fusion, 9);
    const std::vector<HostTensor> expected = interpret(fusion, inputs);
    const std::vector<HostTensor> actual = exe->run(inputs);
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison c = compare_tensors(actual[o], expected[o], Tolerance{0, 0});
      EXPECT_TRUE(c.ok) << "output " << o << ": " << c.message;
    }
  }
}

}  // namespace
}  // namespace seam
