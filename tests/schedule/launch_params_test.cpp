#include "schedule/launch_params.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

TEST(LaunchParams, SmallKernelsTakeOneChunkPerThreadToFillTheGpu) {
  LaunchParams defaults;  // 132 SMs, 2 chunks per thread
  const int64_t wave = 132 * 2048;
  EXPECT_EQ(choose_launch_params(wave * 2, defaults).chunks_per_thread, 2);
  EXPECT_EQ(choose_launch_params(wave * 2 - 1, defaults).chunks_per_thread, 1);
  EXPECT_EQ(choose_launch_params(0, defaults).chunks_per_thread, 1);
  LaunchParams small_gpu = defaults;
  small_gpu.sm_count = 1;
  EXPECT_EQ(choose_launch_params(5000, small_gpu).chunks_per_thread, 2);
  // Everything else is passed through.
  LaunchParams chosen = choose_launch_params(wave * 8, defaults);
  EXPECT_EQ(chosen, defaults);
}

TEST(LaunchParams, PrintsEveryField) {
  LaunchParams p;
  p.max_blocks_per_sm = 8;
  p.max_vector_bytes = 4;
  EXPECT_EQ(p.to_string(),
            "block 256, chunks/thread 2, grid <= 8 blocks/SM, vectors <= 4 B, branch-free, rows tiled by 32, "
            "copies <= 16, uniform branches");
  p.branch_free = false;
  p.row_tile = 0;
  p.max_copies = 1;
  p.uniform_branches = false;
  EXPECT_EQ(p.to_string(), "block 256, chunks/thread 2, grid <= 8 blocks/SM, vectors <= 4 B");
}

}  // namespace
}  // namespace seam
