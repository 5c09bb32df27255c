// The cost model charges a fusion input as the part of it a kernel reads: RoPE's forward boundary bytes
// equal the floors of docs/WORKLOADS.md, and the union of views is exact for boxes and an upper bound
// otherwise.
#include "segment/read_footprint.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ir/builder.h"
#include "passes/pipeline.h"
#include "segment/cost_model.h"
#include "segment/dump.h"
#include "segment/segment.h"
#include "segment/segment_graph.h"
#include "segment/segmented_fusion.h"
#include "workloads/rope.h"

namespace seam {
namespace {

// docs/WORKLOADS.md, "Byte floors", bs 2, forward: {rope-only MB, thunder MB} for W1-W7.
const double kFloorTableMB[7][2] = {{270.5, 270.5}, {337.6, 337.6},  {339.7, 608.2}, {169.9, 304.1},
                                    {304.1, 572.5}, {608.2, 1145.0}, {84.1, 84.1}};

// The floor's definition, for every config: read the q and k parts of qkv (and the v part when v must
// be materialized) and cos/sin once, write every output that is not a view.
int64_t floor_bytes(const RopeConfig& c, RopeContract contract, int64_t B) {
  const int64_t T = c.block_size, hs = c.head_size, e = 2;  // bf16
  const bool expands = expands_kv(c, contract);
  int64_t read = B * T * (c.n_head + c.n_query_groups + (expands ? c.n_query_groups : 0)) * hs * e;
  read += 2 * T * c.rope_n_elem * e;
  int64_t written = B * T * (c.n_head + kv_heads(c, contract) * (expands ? 2 : 1)) * hs * e;
  return read + written;
}

TEST(ReadFootprint, RopeForwardBoundaryBytesAreTheFloors) {
  const auto& configs = rope_configs();
  ASSERT_EQ(configs.size(), 9u);
  for (size_t i = 0; i < configs.size(); ++i)
    for (RopeContract contract : {RopeContract::RopeOnly, RopeContract::Thunder}) {
      RopeOptions o;
      o.contract = contract;
      SegmentOptions so;
      so.bytes_time_budget_seconds = 1;  // a Debug build is slower than the default budget assumes
      SegmentedFusion s = segment_fusion(run_pipeline(build_rope(configs[i], o)), so);
      SCOPED_TRACE(s.fusion.name() + "\n" + dump_segments(s));
      EXPECT_EQ(s.boundary_bytes(), floor_bytes(configs[i], contract, 2));
      if (i < 7) {
        double table = kFloorTableMB[i][contract == RopeContract::Thunder ? 1 : 0];
        EXPECT_NEAR(s.boundary_bytes() / 1e6, table, 0.05);
      }
      EXPECT_TRUE(s.proven_optimal);
      EXPECT_TRUE(s.bytes_proven_optimal);
    }
}

// x [4,6] viewed as [4,2,3]: the slices [:, 0, :] and [:, 1, :] are boxes of one numbering.
TEST(ReadFootprint, UnionOfBoxesIsExact) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {4, 6}), "x");
  Value r = b.reshape(x, {4, 2, 3});
  Value lo = b.slice_axis(r, 1, 0, 1), hi = b.slice_axis(r, 1, 1, 2), head = b.slice_axis(r, 2, 0, 2);
  Fusion f = b.finish({b.exp(lo), b.exp(hi), b.exp(head)});
  auto layout = [&](Value v) { return *view_of_input(f, v); };
  std::vector<StridedLayout> halves{layout(lo), layout(hi)};
  EXPECT_EQ(union_bytes(f, x, halves), 4 * 6 * 4);
  std::vector<StridedLayout> one{layout(lo)};
  EXPECT_EQ(union_bytes(f, x, one), 4 * 3 * 4);
  // [:, 0, :] and [:, :, 0:2] overlap in [:, 0, 0:2]: 12 + 16 - 8 elements.
  std::vector<StridedLayout> overlapping{layout(lo), layout(head)};
  EXPECT_EQ(union_bytes(f, x, overlapping), (12 + 16 - 8) * 4);
  // The same view twice counts once.
  std::vector<StridedLayout> twice{layout(lo), layout(lo)};
  EXPECT_EQ(union_bytes(f, x, twice), 4 * 3 * 4);
}

TEST(ReadFootprint, ViewsThatAreNoBoxesAreChargedAnUpperBound) {
  // A transpose's flattening is not a view (computeStride), so the kernel reads x whole; a strided
  // slice (step 2) and a contiguous one do not share a numbering: charged their sum, at most the whole.
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {8}), "x");
  Value even = b.slice(x, {0}, {8}, {2});
  Value head = b.slice_axis(x, 0, 0, 3);
  Fusion f = b.finish({b.exp(even), b.exp(head)});
  std::vector<StridedLayout> views{*view_of_input(f, even), *view_of_input(f, head)};
  int64_t bytes = union_bytes(f, x, views);
  EXPECT_GE(bytes, (4 + 3 - 2) * 4);  // never below the true union {0,1,2,4,6}
  EXPECT_LE(bytes, 8 * 4);
}

// The cost model lists each distinct view once, a group's boundary once per node that reads it: the
// bound for views that are no boxes must not depend on repetitions, and an empty view reads nothing.
TEST(ReadFootprint, RepeatedAndEmptyViewsDoNotChangeTheBound) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float32, {16}), "x");
  Value even = b.slice(x, {0}, {16}, {2});
  Value head = b.slice_axis(x, 0, 0, 3);
  Value none = b.slice_axis(b.reshape(x, {16, 1}), 1, 0, 0);  // [16, 0]
  Fusion f = b.finish({b.exp(even), b.exp(head), b.exp(none)});
  auto layout = [&](Value v) { return *view_of_input(f, v); };
  std::vector<StridedLayout> once{layout(even), layout(head)};
  std::vector<StridedLayout> repeated{layout(even), layout(head), layout(even), layout(none)};
  EXPECT_EQ(union_bytes(f, x, once), (8 + 3) * 4);
  EXPECT_EQ(union_bytes(f, x, repeated), union_bytes(f, x, once));
  std::vector<StridedLayout> empty{layout(none)};
  EXPECT_EQ(union_bytes(f, x, empty), 0);
}

// The whole-tool fuzzer's finding: a kernel reading a slice through several nodes next to a slice of
// an empty view (no box in the slice's numbering) was charged the slice once by the cost model and once
// per reader by the segmented fusion, and segment_fusion failed its own consistency check.
TEST(ReadFootprint, EmptyViewNextToARepeatedSliceSegments) {
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {4, 2}), "x");
  Value part = b.cast(b.slice_axis(b.reshape(x, {8}), 0, 5, 7), DType::Float32);  // duplicated: 2 elements
  Value none = b.slice(b.reshape(x, {8, 1}), {2, 0}, {4, 0}, {1, 1});             // [2, 0]
  Value padded = b.pad(b.exp(none), {0, 0}, {0, 2}, Number::of_float(0.5));       // [2, 2]
  Value column = b.expand(b.reshape(part, {2, 1}), {2, 2});
  Fusion f = b.finish({b.exp(part), b.neg(part), b.add(b.cast(padded, DType::Float32), column)});
  SegmentedFusion s = segment_fusion(f);
  SCOPED_TRACE(dump_segments(s));
  ASSERT_EQ(s.num_kernels(), 1);
  EXPECT_EQ(s.boundary_bytes(), 2 * 2 + (2 + 2 + 4) * 4);  // the slice read once, three f32 outputs
}

TEST(ReadFootprint, AKernelReadingThroughACastReadsTheView) {
  // cast(slice(x)) duplicated into the kernel: the kernel reads the slice's elements only.
  Builder b;
  Value x = b.input(Type::tensor(DType::BFloat16, {4, 8}), "x");
  Value y = b.exp(b.cast(b.slice_axis(x, 1, 0, 2), DType::Float32));
  Fusion f = b.finish({y});
  SegmentedFusion s = segment_fusion(f);
  ASSERT_EQ(s.num_kernels(), 1);
  EXPECT_EQ(s.boundary_bytes(), 4 * 2 * 2 + 4 * 2 * 4);  // bf16 slice read, f32 result written
}

// The whole-tool fuzzer's finding: a view that a group of its own computes (a squeezed input that a
// scan reads) and a duplicated reshape of it. A kernel reading the reshape reads that group's
// value, not the input beneath it: the cost model charged both, the segmented fusion only the value.
TEST(ReadFootprint, AViewComputedByItsOwnGroupIsNotReadThroughToTheInput) {
  Builder b;
  Value x = b.input(Type::tensor(DType::Float64, {4, 1}), "x");
  Value squeezed = b.squeeze(x, {1});
  Value reshaped = b.reshape(squeezed, {4, 1, 1});
  Value y = b.cast(reshaped, DType::BFloat16);
  Fusion f = b.finish({b.cumsum(squeezed, 0), y});  // a scan reads its operand: squeezed is a node
  SegmentGraph graph(f, SegmentRules{});
  ASSERT_TRUE(graph.duplicated()[reshaped.id]);
  ASSERT_GE(graph.local_of(squeezed.id), 0);
  // Every owned node a group of its own, in node order: the model and the boundaries agree per group.
  std::vector<SegmentGroup> groups;
  std::vector<Cost> model;
  for (int u = 0; u < graph.size(); ++u) {
    const std::vector<int> members{u};
    std::optional<SchedulerKind> kind = graph.classify(members);
    ASSERT_TRUE(kind.has_value());
    model.push_back(group_cost(graph, members, *kind));
    groups.push_back({*kind, graph.node_ids(members), {}, {}, {}, 0});
  }
  fill_group_boundaries(f, graph.duplicated(), groups);
  for (size_t g = 0; g < groups.size(); ++g) {
    SCOPED_TRACE("group " + std::to_string(g));
    EXPECT_EQ(model[g].bytes, groups[g].boundary_bytes);
  }
  // The kernel computing y reads the squeezed value (4 f64), never x beneath the reshape a second time.
  const size_t computes_y = static_cast<size_t>(graph.local_of(y.id));
  EXPECT_EQ(groups[computes_y].boundary_bytes, 4 * 8 + 4 * 2);
}

}  // namespace
}  // namespace seam
