// Floating sums over more terms than a serial f32 sum can count, on the host backend, against their
// exact values (tests/testing/long_sums.h; the GPU suite runs the same cases). SEAM_LARGE_TESTS=1 adds
// 10^8 and 2^28 + 3 terms (seconds each).
#include <gtest/gtest.h>

#include "exec/executable.h"
#include "testing/long_sums.h"

namespace seam {
namespace {

using testing_long_sums::LongSumCase;

TEST(LongSum, HostSumsMatchExactValues) {
  for (const LongSumCase& c : testing_long_sums::long_sum_cases()) {
    ExecutableOptions options;
    options.backend = Backend::Host;
    options.poison_outputs = true;
    const std::vector<HostTensor> out = Executable::compile(c.fusion, options)->run(c.inputs);
    EXPECT_EQ(testing_long_sums::check_long_sum(c, out.at(0)), "");
  }
}

}  // namespace
}  // namespace seam
