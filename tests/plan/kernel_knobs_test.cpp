#include "plan/kernel_knobs.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

TEST(KernelKnobs, ChunksPerThreadFollowTheWork) {
  LaunchParams defaults;  // 132 SMs, chunks per thread chosen per kernel
  const int64_t wave = 132 * 2048;
  EXPECT_EQ(choose_launch_params({wave * 8, false}, defaults).chunks_per_thread, 1);
  EXPECT_EQ(choose_launch_params({wave * 8, true}, defaults).chunks_per_thread, 2);
  EXPECT_EQ(choose_launch_params({wave * 8, true, 0, true}, defaults).chunks_per_thread, 1);  // grouped
  // Set explicitly, they are kept for any kernel large enough.
  LaunchParams four = defaults;
  four.chunks_per_thread = 4;
  EXPECT_EQ(choose_launch_params({wave * 8, false}, four).chunks_per_thread, 4);
  EXPECT_EQ(choose_launch_params({wave * 8, true}, four).chunks_per_thread, 4);
}

TEST(KernelKnobs, SmallKernelsTakeOneChunkPerThreadToFillTheGpu) {
  LaunchParams defaults;
  const int64_t wave = 132 * 2048;
  EXPECT_EQ(choose_launch_params({wave * 2, true}, defaults).chunks_per_thread, 2);
  EXPECT_EQ(choose_launch_params({wave * 2 - 1, true}, defaults).chunks_per_thread, 1);
  EXPECT_EQ(choose_launch_params({0, true}, defaults).chunks_per_thread, 1);
  LaunchParams small_gpu = defaults;
  small_gpu.sm_count = 1;
  EXPECT_EQ(choose_launch_params({5000, true}, small_gpu).chunks_per_thread, 2);
  // Everything else is passed through.
  LaunchParams chosen = choose_launch_params({wave * 8, false}, defaults);
  chosen.chunks_per_thread = defaults.chunks_per_thread;
  chosen.max_group = defaults.max_group;
  chosen.min_blocks_per_sm = defaults.min_blocks_per_sm;
  EXPECT_EQ(chosen, defaults);
}

TEST(KernelKnobs, RegisterCapFollowsTheWork) {
  const int64_t wave = 132 * 2048;
  LaunchParams defaults;  // min_blocks_per_sm -1: chosen per kernel
  EXPECT_EQ(choose_launch_params({wave * 8, true, 20 * 16}, defaults).min_blocks_per_sm, 9);
  EXPECT_EQ(choose_launch_params({wave * 8, true, 12 * 16}, defaults).min_blocks_per_sm, 0);
  EXPECT_EQ(choose_launch_params({wave * 8, false, 20 * 16}, defaults).min_blocks_per_sm, 0);
  LaunchParams none = defaults;
  none.min_blocks_per_sm = 0;  // set explicitly: kept
  EXPECT_EQ(choose_launch_params({wave * 8, true, 20 * 16}, none).min_blocks_per_sm, 0);
  LaunchParams wide = defaults;  // the cap is in registers: 256 threads per block fit 4 blocks at 56
  wide.block_size = 256;
  EXPECT_EQ(choose_launch_params({wave * 8, true, 20 * 16}, wide).min_blocks_per_sm, 4);
  none.min_blocks_per_sm = 12;
  EXPECT_EQ(choose_launch_params({wave * 8, false, 0}, none).min_blocks_per_sm, 12);
}

TEST(KernelKnobs, GroupsFollowTheWork) {
  LaunchParams defaults;  // max_group 0: chosen per kernel
  EXPECT_EQ(choose_lowering_params(true, defaults).max_group, 2);
  EXPECT_EQ(choose_lowering_params(false, defaults).max_group, 1);
  EXPECT_EQ(choose_launch_params({132 * 2048 * 8, true}, defaults).max_group, 2);
  // Set explicitly, they are kept.
  LaunchParams four = defaults;
  four.max_group = 4;
  EXPECT_EQ(choose_lowering_params(false, four).max_group, 4);
  four.max_group = 1;
  EXPECT_EQ(choose_lowering_params(true, four).max_group, 1);
}

}  // namespace
}  // namespace seam
