// The knob table (schedule/launch_knobs.def): one default per knob, the same for the executable, the
// lowerings and `seam emit`; ranges checked where knobs are set by name.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "lower/lower_pointwise.h"
#include "lower/lower_rows.h"
#include "schedule/launch_params.h"
#include "support/error.h"

namespace seam {
namespace {

TEST(Knobs, TableDefaultsAreTheStructsDefaults) {
  const LaunchParams defaults;
  const LoweringOptions lowering;
  const RowLoweringOptions rows;
  ASSERT_FALSE(launch_knobs().empty());
  for (const KnobInfo& knob : launch_knobs()) {
    SCOPED_TRACE(knob.name);
    EXPECT_EQ(knob.get(defaults), knob.default_value);
    EXPECT_EQ(knob.get(lowering), knob.default_value);  // tests lowering directly run the product's knobs
    EXPECT_EQ(knob.get(rows), knob.default_value);
    EXPECT_LE(knob.min, knob.default_value);
    EXPECT_GE(knob.max, knob.default_value);
  }
  // The three that once disagreed between LaunchParams and LoweringOptions: the product's values.
  EXPECT_TRUE(lowering.keep_reused_loads);
  EXPECT_EQ(lowering.max_group, 0);
  EXPECT_EQ(lowering.max_group_loaded_bytes, kCappedRegisterBytes);
}

TEST(Knobs, NamesAndFlagsAreUnique) {
  std::set<std::string> names, flags;
  for (const KnobInfo& knob : launch_knobs()) {
    EXPECT_TRUE(names.insert(knob.name).second) << knob.name;
    EXPECT_TRUE(flags.insert(knob.flag).second) << knob.flag;
    EXPECT_NE(std::string(knob.help), "") << knob.name;
  }
}

TEST(Knobs, SetByNameOrFlagWithinRange) {
  LaunchParams params;
  set_knob(params, "max_group", 4);
  EXPECT_EQ(params.max_group, 4);
  set_knob(params, "chunks-per-thread", 2);
  EXPECT_EQ(params.chunks_per_thread, 2);
  set_knob(params, "keep_reused_loads", 0);
  EXPECT_FALSE(params.keep_reused_loads);
  try {
    set_knob(params, "block_size", 4096);
    FAIL() << "out of range";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block_size (--block) must be 32 to 1024, got 4096"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(set_knob(params, "no_such_knob", 1), Error);
}

TEST(Knobs, PrintedInTableOrder) {
  LaunchParams params;
  params.max_copies = 1;
  const std::string text = knobs_to_string(params);
  EXPECT_EQ(text.rfind("block_size=128 chunks_per_thread=0 ", 0), 0u) << text;
  EXPECT_NE(text.find(" max_copies=1 "), std::string::npos) << text;
  EXPECT_NE(text.find(" row_block_size=256"), std::string::npos) << text;
}

// Every sweep value the benchmark generates a variant from is within the knob's range.
TEST(Knobs, SweepValuesAreInRange) {
  for (const KnobInfo& knob : launch_knobs()) {
    std::istringstream values(knob.sweep);
    for (int64_t v; values >> v;) {
      LaunchParams params;
      EXPECT_NO_THROW(set_knob(params, knob.name, v)) << knob.name << "=" << v;
      EXPECT_NE(v, knob.default_value) << knob.name << ": a sweep value equal to the default";
    }
  }
}

}  // namespace
}  // namespace seam
