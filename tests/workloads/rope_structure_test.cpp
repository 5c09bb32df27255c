// Structure of the RoPE fusions: every W1..W9 x contract x direction builds and verifies with the input and
// output types of docs/WORKLOADS.md; views stay views; config lookup and bad input give clear errors.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "ir/verify.h"
#include "support/error.h"
#include "workloads/rope.h"

namespace seam {
namespace {

using Case = std::tuple<std::string, RopeContract, Direction>;

std::string case_name(const testing::TestParamInfo<Case>& info) {
  auto [id, contract, direction] = info.param;
  return id + (contract == RopeContract::Thunder ? "_thunder" : "_rope_only") +
         (direction == Direction::Forward ? "_fwd" : "_bwd");
}

Type bf16(Shape shape) { return Type::tensor(DType::BFloat16, std::move(shape)); }

std::string input_name(const Fusion& f, Value input) { return f.node(input).attrs.get_string("name"); }

// Op kinds of every node that `root` depends on, root included.
std::multiset<OpKind> ops_reaching(const Fusion& f, Value root) {
  std::vector<bool> seen(f.num_nodes(), false);
  std::vector<Value> stack = {root};
  std::multiset<OpKind> ops;
  while (!stack.empty()) {
    Value v = stack.back();
    stack.pop_back();
    if (seen[v.id]) continue;
    seen[v.id] = true;
    ops.insert(f.node(v).op);
    for (Value operand : f.node(v).operands) stack.push_back(operand);
  }
  return ops;
}

size_t count_ops(const Fusion& f, OpKind kind) {
  size_t count = 0;
  for (const Node& n : f.nodes()) count += n.op == kind;
  return count;
}

class RopeStructure : public testing::TestWithParam<Case> {};

TEST_P(RopeStructure, BuildsWithTheDocumentedTypes) {
  auto [id, contract, direction] = GetParam();
  const RopeConfig& c = rope_config(id);
  const int64_t nh = c.n_head, ng = c.n_query_groups, hs = c.head_size, n = c.rope_n_elem;
  const bool gqa_thunder = contract == RopeContract::Thunder && ng != nh;
  const int64_t kvh = gqa_thunder ? nh : ng;
  for (int64_t B : {1, 2}) {
    const int64_t T = 8;
    SCOPED_TRACE("B=" + std::to_string(B));
    Fusion f = build_rope(c, {.batch = B, .seq_len = T, .contract = contract, .direction = direction});
    EXPECT_NO_THROW(verify(f));
    EXPECT_TRUE(is_identifier(f.name())) << f.name();
    if (direction == Direction::Forward) {
      ASSERT_EQ(f.inputs().size(), 3u);
      EXPECT_EQ(input_name(f, f.inputs()[0]), "qkv");
      EXPECT_EQ(f.type(f.inputs()[0]), bf16({B, T, (nh + 2 * ng) * hs}));
      ASSERT_EQ(f.outputs().size(), 3u);
      EXPECT_EQ(f.outputs()[0].name, "q");
      EXPECT_EQ(f.outputs()[1].name, "k");
      EXPECT_EQ(f.outputs()[2].name, "v");
      EXPECT_EQ(f.type(f.outputs()[0].value), bf16({B, nh, T, hs}));
      EXPECT_EQ(f.type(f.outputs()[1].value), bf16({B, kvh, T, hs}));
      EXPECT_EQ(f.type(f.outputs()[2].value), bf16({B, kvh, T, hs}));
      // One rotation (one neg) for q and one for k. cos and sin expand over batch and heads for each;
      // k and v expand to nh heads only for thunder GQA.
      EXPECT_EQ(count_ops(f, OpKind::Neg), 2u);
      EXPECT_EQ(count_ops(f, OpKind::Expand), gqa_thunder ? 6u : 4u);
      EXPECT_EQ(count_ops(f, OpKind::Sum), 0u);
    } else {
      ASSERT_EQ(f.inputs().size(), 5u);
      const char* names[] = {"grad_q", "grad_k", "grad_v", "cos", "sin"};
      for (int i = 0; i < 5; ++i) EXPECT_EQ(input_name(f, f.inputs()[i]), names[i]);
      EXPECT_EQ(f.type(f.inputs()[0]), bf16({B, nh, T, hs}));
      EXPECT_EQ(f.type(f.inputs()[1]), bf16({B, kvh, T, hs}));
      EXPECT_EQ(f.type(f.inputs()[2]), bf16({B, kvh, T, hs}));
      ASSERT_EQ(f.outputs().size(), 1u);
      EXPECT_EQ(f.outputs()[0].name, "dqkv");
      EXPECT_EQ(f.type(f.outputs()[0].value), bf16({B, T, (nh + 2 * ng) * hs}));
      // The expand of k and v transposes into one sum each.
      EXPECT_EQ(count_ops(f, OpKind::Sum), gqa_thunder ? 2u : 0u);
    }
    const size_t tables = direction == Direction::Forward ? 1 : 3;
    EXPECT_EQ(f.type(f.inputs()[tables]), bf16({T, n}));
    EXPECT_EQ(f.type(f.inputs()[tables + 1]), bf16({T, n}));
    EXPECT_EQ(input_name(f, f.inputs()[tables]), "cos");
    EXPECT_EQ(input_name(f, f.inputs()[tables + 1]), "sin");
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (int w = 1; w <= 9; ++w)
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly})
      for (Direction direction : {Direction::Forward, Direction::Backward})
        cases.emplace_back("W" + std::to_string(w), contract, direction);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, RopeStructure, testing::ValuesIn(all_cases()), case_name);

using ContractCase = std::tuple<std::string, RopeContract>;

class RopeForwardViews : public testing::TestWithParam<ContractCase> {};

TEST_P(RopeForwardViews, ValueHeadsAreMovementOnlyAndExpandedOnlyForThunderGqa) {
  auto [id, contract] = GetParam();
  const RopeConfig& c = rope_config(id);
  Fusion f = build_rope(c, {.batch = 2, .seq_len = 4, .contract = contract});
  const bool gqa_thunder = contract == RopeContract::Thunder && c.n_query_groups != c.n_head;
  std::multiset<OpKind> v_ops = ops_reaching(f, f.outputs()[2].value);
  for (OpKind op : v_ops) {
    if (op == OpKind::Input) continue;
    EXPECT_EQ(op_info(op).category, OpCategory::Movement) << "v computes with '" << op_name(op) << "'";
  }
  EXPECT_EQ(v_ops.count(OpKind::Input), 1u);  // qkv only, never cos or sin
  EXPECT_EQ(v_ops.count(OpKind::Expand), gqa_thunder ? 1u : 0u);
  // k is rotated once and reads qkv, cos and sin.
  std::multiset<OpKind> k_ops = ops_reaching(f, f.outputs()[1].value);
  EXPECT_EQ(k_ops.count(OpKind::Neg), 1u);
  EXPECT_EQ(k_ops.count(OpKind::Input), 3u);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, RopeForwardViews,
                         testing::Combine(testing::Values("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8",
                                                          "W9"),
                                          testing::Values(RopeContract::Thunder, RopeContract::RopeOnly)),
                         [](const testing::TestParamInfo<ContractCase>& info) {
                           return std::get<0>(info.param) + (std::get<1>(info.param) == RopeContract::Thunder
                                                                 ? "_thunder"
                                                                 : "_rope_only");
                         });

TEST(RopeStructure, PartialRotaryCopiesTheTailThroughACat) {
  Fusion f = build_rope(rope_config("phi-2"), {.batch = 1, .seq_len = 4});
  // q and k: cat(-y2, y1) and cat(roped, tail) each.
  EXPECT_EQ(count_ops(f, OpKind::Cat), 4u);
  Fusion full = build_rope(rope_config("Llama-2-7b-hf"), {.batch = 1, .seq_len = 4});
  EXPECT_EQ(count_ops(full, OpKind::Cat), 2u);
}

TEST(RopeStructure, BuildsAtFullBlockSize) {
  Fusion f = build_rope(rope_config("W6"), {.batch = 2});
  EXPECT_EQ(f.type(f.outputs()[0].value), bf16({2, 64, 8192, 128}));
  EXPECT_EQ(f.type(f.outputs()[1].value), bf16({2, 64, 8192, 128}));
  EXPECT_EQ(f.name(), "rope_Llama_3_70B_thunder_fwd_b2_t8192");
  Fusion only = build_rope(rope_config("W6"), {.batch = 2, .contract = RopeContract::RopeOnly});
  EXPECT_EQ(only.type(only.outputs()[1].value), bf16({2, 8, 8192, 128}));
}

TEST(RopeConfigs, TableMatchesWorkloadsDoc) {
  const std::vector<RopeConfig>& all = rope_configs();
  ASSERT_EQ(all.size(), 9u);
  const RopeConfig& w3 = rope_config("W3");
  EXPECT_EQ(w3.name, "Llama-3-8B");
  EXPECT_EQ(w3.queries_per_group(), 4);
  EXPECT_EQ(w3.block_size, 8192);
  const RopeConfig& phi2 = rope_config("phi-2");
  EXPECT_EQ(phi2.head_size, 80);
  EXPECT_EQ(phi2.rope_n_elem, 32);
  EXPECT_EQ(rope_config("W9").n_query_groups, 8);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_NO_THROW(validate(all[i]));
    EXPECT_EQ(rope_config_id(all[i]), "W" + std::to_string(i + 1));
    EXPECT_EQ(&rope_config(all[i].name), &all[i]);
  }
}

TEST(RopeConfigs, AcceptsIdsAliasesAndAnyCase) {
  EXPECT_EQ(rope_config("Phi-3.5-mini").name, "Phi-3.5-mini-instruct");
  EXPECT_EQ(rope_config("Phi-3.5-mini-instruct").name, "Phi-3.5-mini-instruct");
  EXPECT_EQ(rope_config("w2").name, "Llama-2-13b-hf");
  EXPECT_EQ(rope_config("LLAMA-2-13B-HF").name, "Llama-2-13b-hf");
  EXPECT_EQ(rope_config_id(RopeConfig{"custom", 4, 2, 8, 8, 16}), "");
}

TEST(RopeConfigs, UnknownNameListsTheValidOnes) {
  try {
    rope_config("Llama-4");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("Llama-4"), std::string::npos) << message;
    EXPECT_NE(message.find("W9 (gemma-2-9b)"), std::string::npos) << message;
    EXPECT_NE(message.find("Llama-3-8B"), std::string::npos) << message;
  }
  EXPECT_THROW(rope_config("W10"), Error);
  EXPECT_THROW(rope_config(""), Error);
}

TEST(RopeConfigs, ContractNamesRoundTrip) {
  for (RopeContract c : {RopeContract::Thunder, RopeContract::RopeOnly})
    EXPECT_EQ(parse_contract(contract_name(c)), c);
  EXPECT_THROW(parse_contract("eager"), Error);
}

TEST(RopeCustom, BuildsMultiQueryAndSmallConfigs) {
  // MQA: litgpt 0.5.0 expands k and v when training, so thunder gives nh heads.
  RopeConfig mqa{"mqa", 4, 1, 8, 4, 16};
  Fusion f = build_rope(mqa, {.batch = 1, .seq_len = 3});
  EXPECT_EQ(f.type(f.outputs()[1].value), bf16({1, 4, 3, 8}));
  Fusion only = build_rope(mqa, {.batch = 1, .seq_len = 3, .contract = RopeContract::RopeOnly});
  EXPECT_EQ(only.type(only.outputs()[1].value), bf16({1, 1, 3, 8}));
  Fusion bwd = build_rope(mqa, {.batch = 1, .seq_len = 3, .direction = Direction::Backward});
  EXPECT_EQ(bwd.type(bwd.outputs()[0].value), bf16({1, 3, 48}));
  // f32 I/O needs no casts.
  Fusion f32 = build_rope(mqa, {.batch = 1, .seq_len = 3, .dtype = DType::Float32});
  EXPECT_EQ(count_ops(f32, OpKind::Cast), 0u);
  EXPECT_EQ(f32.type(f32.outputs()[0].value), Type::tensor(DType::Float32, {1, 4, 3, 8}));
}

TEST(RopeCustom, RejectsBadConfigsAndOptions) {
  auto rejects = [](RopeConfig c, const std::string& fragment) {
    try {
      build_rope(c, {.batch = 1, .seq_len = 2});
      ADD_FAILURE() << "no error for " << fragment;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  rejects({"a", 6, 4, 8, 8, 16}, "does not divide n_head");
  rejects({"b", 4, 4, 8, 6 + 1, 16}, "rope_n_elem");
  rejects({"c", 4, 4, 8, 10, 16}, "rope_n_elem");
  rejects({"d", 0, 1, 8, 8, 16}, "n_head");
  rejects({"e", 4, 0, 8, 8, 16}, "n_query_groups");
  rejects({"f", 4, 4, 8, 8, 0}, "block_size");
  RopeConfig ok{"ok", 4, 2, 8, 8, 16};
  EXPECT_THROW(build_rope(ok, {.batch = 0}), Error);
  EXPECT_THROW(build_rope(ok, {.batch = 1, .seq_len = -1}), Error);
  EXPECT_THROW(build_rope(ok, {.batch = 1, .dtype = DType::Int32}), Error);
}

TEST(RopeCustom, EmitRejectsMismatchedValues) {
  RopeConfig c{"c", 4, 2, 8, 8, 16};
  Builder b("bad");
  Value qkv = b.input(bf16({1, 3, 63}), "qkv");  // one short of (4 + 4) * 8
  Value cos = b.input(bf16({3, 8}), "cos");
  Value sin = b.input(bf16({3, 8}), "sin");
  EXPECT_THROW(emit_rope_forward(b, c, RopeContract::Thunder, qkv, cos, sin), Error);
  Value good = b.input(bf16({1, 3, 64}), "good");
  Value short_cos = b.input(bf16({2, 8}), "short_cos");
  EXPECT_THROW(emit_rope_forward(b, c, RopeContract::Thunder, good, short_cos, sin), Error);
  Value gq = b.input(bf16({1, 4, 3, 8}), "gq");
  Value gk = b.input(bf16({1, 2, 3, 8}), "gk");  // thunder GQA wants 4 heads
  EXPECT_THROW(emit_rope_backward(b, c, RopeContract::Thunder, gq, gk, gk, cos, sin), Error);
  EXPECT_NO_THROW(emit_rope_backward(b, c, RopeContract::RopeOnly, gq, gk, gk, cos, sin));
}

}  // namespace
}  // namespace seam
