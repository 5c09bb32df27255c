// The transformer stack: builds, verifies and runs through the interpreter at tiny sizes; grows linearly
// with the layer count.
#include "workloads/transformer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "interp/interpreter.h"
#include "ir/verify.h"
#include "support/error.h"

namespace seam {
namespace {

TransformerConfig tiny(int64_t layers, int64_t batch) {
  return {.hidden = 16,
          .n_head = 4,
          .n_query_groups = 2,
          .head_size = 4,
          .intermediate = 24,
          .seq_len = 4,
          .batch = batch,
          .layers = layers};
}

size_t count_ops(const Fusion& f, OpKind kind) {
  size_t count = 0;
  for (const Node& n : f.nodes()) count += n.op == kind;
  return count;
}

TEST(TransformerStack, RunsThroughTheInterpreterWithFiniteOutputs) {
  for (int64_t layers : {1, 2}) {
    for (int64_t batch : {1, 2}) {
      SCOPED_TRACE(testing::Message() << "layers " << layers << " batch " << batch);
      Fusion f = build_transformer_stack(tiny(layers, batch));
      EXPECT_NO_THROW(verify(f));
      ASSERT_EQ(f.inputs().size(), 3u + 7u * layers);
      ASSERT_EQ(f.outputs().size(), 1u);
      EXPECT_EQ(f.outputs()[0].name, "y");
      EXPECT_EQ(f.type(f.outputs()[0].value), Type::tensor(DType::BFloat16, {batch, 4, 16}));
      std::vector<HostTensor> out = interpret(f, random_inputs(f, 5));
      ASSERT_EQ(out.size(), 1u);
      int64_t nonzero = 0;
      for (int64_t i = 0; i < out[0].numel(); ++i) {
        ASSERT_TRUE(std::isfinite(out[0].get_double(i))) << "element " << i;
        nonzero += out[0].get_double(i) != 0;
      }
      EXPECT_GT(nonzero, out[0].numel() / 2);
    }
  }
}

TEST(TransformerStack, MultiHeadConfigNeedsNoExpandOfKeys) {
  TransformerConfig c = tiny(1, 1);
  c.n_query_groups = c.n_head;
  Fusion f = build_transformer_stack(c);
  std::vector<HostTensor> out = interpret(f, random_inputs(f, 3));
  for (int64_t i = 0; i < out[0].numel(); ++i) ASSERT_TRUE(std::isfinite(out[0].get_double(i)));
  TransformerConfig gqa = tiny(1, 1);
  // GQA adds the expand of k and v (thunder contract) to the expands of cos, sin, norms and softmax.
  EXPECT_EQ(count_ops(build_transformer_stack(gqa), OpKind::Expand), count_ops(f, OpKind::Expand) + 2);
}

TEST(TransformerStack, EachLayerAddsTheSameOpsAndThirtyGiveThousands) {
  TransformerConfig c;  // the default, Llama-like
  c.layers = 1;
  const int one = build_transformer_stack(c).num_nodes();
  c.layers = 2;
  const int two = build_transformer_stack(c).num_nodes();
  c.layers = 30;
  Fusion thirty = build_transformer_stack(c);
  EXPECT_EQ(thirty.num_nodes(), one + 29 * (two - one));
  EXPECT_GT(thirty.num_nodes(), 2000);
  EXPECT_EQ(count_ops(thirty, OpKind::Matmul), 60u);
  EXPECT_EQ(count_ops(thirty, OpKind::Linear), 150u);
}

TEST(TransformerStack, RejectsBadConfigs) {
  TransformerConfig c = tiny(0, 1);
  EXPECT_THROW(build_transformer_stack(c), Error);
  c = tiny(1, 1);
  c.n_query_groups = 3;  // does not divide 4 heads
  EXPECT_THROW(build_transformer_stack(c), Error);
  c = tiny(1, 1);
  c.dtype = DType::Int64;
  EXPECT_THROW(build_transformer_stack(c), Error);
}

}  // namespace
}  // namespace seam
