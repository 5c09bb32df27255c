// The row pipeline as data (names, order, a prefix of it through `last`) on softmax's row kernel, and the
// plan's one `--pass` option routed to the pipeline that has the name.
#include "lower/row_pipeline.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "lower/kir_printer.h"
#include "plan/plan.h"
#include "plan/row_plan.h"
#include "segment/segment.h"
#include "support/error.h"

namespace seam {
namespace {

TEST(RowPipeline, NamedPassesInOrder) {
  std::vector<std::string> names;
  for (const RowPass& pass : row_pipeline()) names.emplace_back(pass.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cache-row-loads", "load-ahead", "hoist-row-divisors"}));
  EXPECT_TRUE(is_row_pass("load-ahead"));
  EXPECT_FALSE(is_row_pass("cse-values"));
}

Fusion softmax(int64_t rows, int64_t columns) {
  Builder b("softmax");
  Value x = b.input(Type::tensor(DType::Float32, {rows, columns}), "x");
  Value e = b.exp(b.sub(x, b.broadcast_to(b.reduce(OpKind::Max, x, {1}, true), {rows, columns})));
  return b.finish({b.div(e, b.broadcast_to(b.sum(e, {1}, true), {rows, columns}))});
}

std::string row_kir(const std::string& last) {
  RowLoweringOptions options;
  options.row_last_pass = last;
  return print_kir(plan_and_lower_rows(softmax(64, 1024), options).kernel);
}

TEST(RowPipeline, LastPassStopsThePipeline) {
  const std::string none = row_kir("none"), cached = row_kir("cache-row-loads"), all = row_kir("");
  EXPECT_EQ(none.find("seam_cache"), std::string::npos) << none;
  EXPECT_NE(cached.find("from seam_cache"), std::string::npos) << cached;
  EXPECT_NE(cached.find("div("), std::string::npos) << cached;
  EXPECT_EQ(all.find("div("), std::string::npos) << all;
  EXPECT_NE(all.find("reciprocal("), std::string::npos) << all;
  EXPECT_EQ(row_kir("hoist-row-divisors"), all);
}

TEST(RowPipeline, UnknownPassNamesThePasses) {
  kir::RowLaunch launch;
  try {
    run_row_pipeline(launch, RowPassOptions{false, "bogus"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown row pass 'bogus' (passes: cache-row-loads, load-ahead, "
                                         "hoist-row-divisors, or none)"),
              std::string::npos)
        << e.what();
  }
}

TEST(RowPipeline, ThePlanRefusesAPassNeitherPipelineHas) {
  const SegmentedFusion segmented = segment_fusion(softmax(8, 64));
  PlanOptions options;
  options.last_pass = "bogus";
  EXPECT_THROW(plan_fusion(segmented, options), Error);
  options.last_pass = "cse-values";  // a kernel-IR pass: the row kernel runs its pipeline whole
  const FusionPlan plan = plan_fusion(segmented, options);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_NE(print_kir(plan.steps[0].kernel).find("reciprocal("), std::string::npos);
}

}  // namespace
}  // namespace seam
