// Workload configurations past the size limits (ir/limits.h) fail at once with a message: a layer count
// that would pass the fusion size limit is refused after building one layer, and extents whose
// products overflow are refused before any arithmetic on them.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "ir/limits.h"
#include "support/error.h"
#include "workloads/rope.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

std::string error_of(const TransformerConfig& config) {
  try {
    build_transformer_stack(config);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(WorkloadLimits, TooManyTransformerLayersFailAfterTheFirst) {
  TransformerConfig c;
  c.layers = 1000000;  // `seam workload transformer --layers 1000000`
  const std::string message = error_of(c);
  EXPECT_NE(message.find("transformer: 1000000 layers of "), std::string::npos) << message;
  EXPECT_NE(message.find("over the fusion size limit of 2^20 values plus outputs (at most "),
            std::string::npos)
      << message;
  c.layers = std::numeric_limits<int64_t>::max();  // the product of layers and values per layer overflows
  EXPECT_NE(error_of(c).find("over the fusion size limit"), std::string::npos);
}

TEST(WorkloadLimits, TheLayerBoundInTheMessageIsTight) {
  // The message's bound, from the first layer's size, is the largest count within the limit.
  TransformerConfig c;
  c.layers = 1000000;
  const std::string message = error_of(c);
  const size_t at = message.find("(at most ");
  ASSERT_NE(at, std::string::npos);
  const int64_t most = std::stoll(message.substr(at + 9));
  const size_t of = message.find(" layers of ");
  const int64_t per_layer = std::stoll(message.substr(of + 11));
  EXPECT_LE(3 + most * per_layer + 1, SizeLimits::kMaxFusionSize);
  EXPECT_GT(3 + (most + 1) * per_layer + 1, SizeLimits::kMaxFusionSize);
  c.layers = most + 1;
  EXPECT_NE(error_of(c).find("over the fusion size limit"), std::string::npos);
}

TEST(WorkloadLimits, HugeExtentsAreErrorsNotOverflow) {
  TransformerConfig c;
  c.hidden = int64_t{1} << 40;
  EXPECT_NE(error_of(c).find("too many elements"), std::string::npos) << error_of(c);
  c = TransformerConfig{};
  c.n_head = c.n_query_groups = int64_t{1} << 62;
  EXPECT_NE(error_of(c).find("the qkv width (n_head + 2 * n_query_groups) * head_size is over 2^40"),
            std::string::npos)
      << error_of(c);
  RopeConfig rope{"huge", 8, 8, std::numeric_limits<int64_t>::max() / 2 + 1, 2, 16};
  EXPECT_THROW(validate(rope), Error);
}

}  // namespace
}  // namespace seam
