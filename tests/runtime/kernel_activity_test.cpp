// The arithmetic of kernel durations (runtime/kernel_activity.h) on made-up records: no GPU or CUPTI
// needed. Recording itself runs on the GPU machine (bench_rope_gpu, seam bench).
#include "runtime/kernel_activity.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace seam {
namespace {

ActivityRecord kernel(uint64_t start_ns, uint64_t duration_ns) {
  return {ActivityRecord::Kind::Kernel, start_ns, start_ns + duration_ns};
}

TEST(KernelActivity, MedianOfRunsSumsEachRunsRecordsAndSkipsEarlierOnes) {
  // A warm-up run of one long kernel, then 3 runs of 2 kernels each (sums 3, 30, 7 us); a copy between
  // them is of another kind and not counted.
  std::vector<ActivityRecord> records = {kernel(0, 100000),   kernel(1000, 1000),
                                         kernel(2000, 2000),  {ActivityRecord::Kind::Copy, 2500, 9000000},
                                         kernel(3000, 10000), kernel(4000, 20000),
                                         kernel(5000, 3000),  kernel(6000, 4000)};
  EXPECT_DOUBLE_EQ(median_run_us(records, ActivityRecord::Kind::Kernel, 2, 3), 7.0);
  EXPECT_DOUBLE_EQ(median_run_us(records, ActivityRecord::Kind::Copy, 1, 1), 8997.5);
  // The last 2 runs only: the median of 30 and 7.
  EXPECT_DOUBLE_EQ(median_run_us(records, ActivityRecord::Kind::Kernel, 2, 2), 18.5);
}

TEST(KernelActivity, TooFewRecordsIsAnErrorSayingHowMany) {
  std::vector<ActivityRecord> records = {kernel(0, 1000), kernel(1000, 1000), kernel(2000, 1000)};
  try {
    median_run_us(records, ActivityRecord::Kind::Kernel, 2, 2);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("recorded 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at least 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(median_run_us(records, ActivityRecord::Kind::Kernel, 0, 2), Error);
}

TEST(KernelActivity, AvailabilitySaysWhyNot) {
  std::string why;
  if (!activity_available(&why)) {
    EXPECT_FALSE(why.empty());
  } else {
    EXPECT_TRUE(why.empty());
  }
}

}  // namespace
}  // namespace seam
