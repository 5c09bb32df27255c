// f8 casts and movement through the host backend's generated code, bit for bit against the interpreter
// (the conversions are exact functions of the input: no tolerance).
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "testing/float8_cases.h"

namespace seam {
namespace {

TEST(Float8Executable, HostBackendMatchesInterpreterBitForBit) {
  for (const Fusion& fusion : testing_float8::float8_fusions()) {
    SCOPED_TRACE(fusion.name());
    ExecutableOptions options;
    options.backend = Backend::Host;
    options.poison_outputs = true;
    auto exe = Executable::compile(fusion, options);
    const std::vector<HostTensor> inputs = testing_float8::float8_inputs(fusion, 7);
    const std::vector<HostTensor> expected = interpret(fusion, inputs);
    const std::vector<HostTensor> actual = exe->run(inputs);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t o = 0; o < actual.size(); ++o) {
      const Comparison c = compare_tensors(actual[o], expected[o], Tolerance{0, 0});
      EXPECT_TRUE(c.ok) << "output " << o << ": " << c.message;
    }
  }
}

}  // namespace
}  // namespace seam
