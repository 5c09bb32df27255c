// Floating sums over more terms than a serial f32 sum can count, on the GPU, against their exact values
// (tests/testing/long_sums.h, the host backend's cases): a long row's chunked f32 sums and online pairs
// (RowLoop chunks), sums across rows, the scans' running sums.
#include <gtest/gtest.h>

#include "device_tensors.h"
#include "exec/executable.h"
#include "testing/long_sums.h"

namespace seam {
namespace {

using testing_long_sums::LongSumCase;

TEST(GpuSuite, LongSumsMatchExactValues) {
  SKIP_WITHOUT_GPU();
  for (const LongSumCase& c : testing_long_sums::long_sum_cases()) {
    ExecutableOptions options;
    options.backend = Backend::Cuda;
    options.poison_outputs = true;
    const std::vector<HostTensor> out = Executable::compile(c.fusion, options)->run(c.inputs);
    EXPECT_EQ(testing_long_sums::check_long_sum(c, out.at(0)), "");
  }
}

}  // namespace
}  // namespace seam
