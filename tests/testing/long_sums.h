// Floating sums over more terms than a serial f32 sum can count (after 2^24 equal terms adding one more
// changes nothing), with the exact results in f64: row sums, sums across rows (a non-innermost axis),
// the online max/sum pair of a log-sum-exp, and cumsum's running sums. Inputs are broadcasts of a few
// elements, so no case allocates more than a few bytes of input. The host tests (tests/exec) and the GPU
// suite (tests/gpu) run the same cases.
#pragma once

#include <string>
#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam::testing_long_sums {

struct LongSumCase {
  std::string name;
  Fusion fusion;
  std::vector<HostTensor> inputs;
  std::vector<double> expected;  // output 0, element by element
  double tolerance;              // absolute
};

// Terms per sum: 2^24 + 5 and 2^25 + 7; with SEAM_LARGE_TESTS=1 also 10^8 and 2^28 + 3.
std::vector<int64_t> long_sizes();
// Row sums (f32 and bf16 data), column sums, log-sum-exp, at every size of long_sizes(); cumsums of
// [2^24, 1, 1, ...] along the innermost and an outer axis, whose outputs must each be rounded once.
std::vector<LongSumCase> long_sum_cases();
// "" when `out` (output 0 of the case's run) matches, else what differs.
std::string check_long_sum(const LongSumCase& c, const HostTensor& out);

}  // namespace seam::testing_long_sums
