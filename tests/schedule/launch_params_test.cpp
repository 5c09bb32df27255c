#include "schedule/launch_params.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

TEST(LaunchParams, PrintsEveryField) {
  LaunchParams p;
  p.chunks_per_thread = 2;
  p.max_blocks_per_sm = 8;
  p.max_vector_bytes = 4;
  EXPECT_EQ(
      p.to_string(),
      "block 128, chunks/thread 2, grid <= 8 blocks/SM, register cap per kernel, vectors <= 4 B, "
      "branch-free, rows tiled by 2 (32 in runs), "
      "copies <= 16, uniform branches, groups per kernel (chunks loading <= 224 B), reused loads kept in L2");
  p.max_group = 4;
  EXPECT_NE(p.to_string().find(", groups <= 4"), std::string::npos);
  p.max_group = 1;
  p.branch_free = false;
  p.row_tile = 0;
  p.max_copies = 1;
  p.uniform_branches = false;
  p.keep_reused_loads = false;
  p.min_blocks_per_sm = 0;
  EXPECT_EQ(p.to_string(), "block 128, chunks/thread 2, grid <= 8 blocks/SM, vectors <= 4 B");
  p.streaming_stores = true;
  p.min_blocks_per_sm = 9;
  EXPECT_EQ(p.to_string(),
            "block 128, chunks/thread 2, grid <= 8 blocks/SM, registers for 9 blocks/SM, vectors <= 4 B, "
            "streaming stores");
}

}  // namespace
}  // namespace seam
