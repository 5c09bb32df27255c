// The W1..W9 table of docs/WORKLOADS.md (litgpt values), lookup by name or id, and config validation.
#include <algorithm>
#include <cctype>

#include "ir/limits.h"
#include "support/checked_math.h"
#include "support/error.h"
#include "workloads/rope.h"

namespace seam {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Other spellings people use for a table entry.
struct Alias {
  std::string_view alias;
  std::string_view name;
};
constexpr Alias kAliases[] = {{"Phi-3.5-mini", "Phi-3.5-mini-instruct"}};

}  // namespace

const std::vector<RopeConfig>& rope_configs() {
  // name, nh, ng, hs, n, block_size
  static const std::vector<RopeConfig> configs = {
      {"Llama-2-7b-hf", 32, 32, 128, 128, 4096},        // W1 MHA
      {"Llama-2-13b-hf", 40, 40, 128, 128, 4096},       // W2 MHA, the seed's case
      {"Llama-3-8B", 32, 8, 128, 128, 8192},            // W3 GQA 4:1
      {"Mistral-7B-v0.1", 32, 8, 128, 128, 4096},       // W4 GQA 4:1
      {"Llama-2-70b-hf", 64, 8, 128, 128, 4096},        // W5 GQA 8:1
      {"Llama-3-70B", 64, 8, 128, 128, 8192},           // W6 GQA 8:1
      {"phi-2", 32, 32, 80, 32, 2048},                  // W7 partial rotary 0.4
      {"Phi-3.5-mini-instruct", 32, 32, 96, 96, 4096},  // W8 head size 96
      {"gemma-2-9b", 16, 8, 256, 256, 8192},            // W9 head size 256, GQA 2:1
  };
  return configs;
}

const RopeConfig& rope_config(std::string_view name_or_id) {
  const std::vector<RopeConfig>& configs = rope_configs();
  for (const Alias& a : kAliases)
    if (equals_ignoring_case(name_or_id, a.alias)) name_or_id = a.name;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (equals_ignoring_case(name_or_id, configs[i].name) ||
        equals_ignoring_case(name_or_id, "W" + std::to_string(i + 1)))
      return configs[i];
  }
  std::string valid;
  for (size_t i = 0; i < configs.size(); ++i)
    valid += detail::concat(i ? ", " : "", "W", i + 1, " (", configs[i].name, ")");
  throw Error(detail::concat("unknown RoPE config '", name_or_id, "'; valid: ", valid));
}

std::string rope_config_id(const RopeConfig& config) {
  const std::vector<RopeConfig>& configs = rope_configs();
  for (size_t i = 0; i < configs.size(); ++i)
    if (configs[i].name == config.name) return "W" + std::to_string(i + 1);
  return "";
}

void validate(const RopeConfig& c) {
  const std::string& name = c.name;
  SEAM_CHECK(c.n_head > 0, "RoPE config '", name, "': n_head must be positive, got ", c.n_head);
  SEAM_CHECK(c.n_query_groups > 0, "RoPE config '", name, "': n_query_groups must be positive, got ",
             c.n_query_groups);
  SEAM_CHECK(c.n_head % c.n_query_groups == 0, "RoPE config '", name, "': n_query_groups ", c.n_query_groups,
             " does not divide n_head ", c.n_head);
  SEAM_CHECK(c.head_size > 0, "RoPE config '", name, "': head_size must be positive, got ", c.head_size);
  SEAM_CHECK(c.rope_n_elem > 0 && c.rope_n_elem % 2 == 0 && c.rope_n_elem <= c.head_size, "RoPE config '",
             name, "': rope_n_elem must be even and in [2, head_size ", c.head_size, "], got ",
             c.rope_n_elem);
  SEAM_CHECK(c.block_size > 0, "RoPE config '", name, "': block_size must be positive, got ", c.block_size);
  // The qkv width is computed before any type is built, so its arithmetic is checked here.
  const std::optional<int64_t> groups = checked_mul(2, c.n_query_groups);
  const std::optional<int64_t> heads = groups ? checked_add(c.n_head, *groups) : std::nullopt;
  const std::optional<int64_t> width = heads ? checked_mul(*heads, c.head_size) : std::nullopt;
  SEAM_CHECK(width && *width <= SizeLimits::kMaxElements, "RoPE config '", name,
             "': the qkv width (n_head + 2 * n_query_groups) * head_size is over 2^40");
}

std::string_view contract_name(RopeContract contract) {
  return contract == RopeContract::Thunder ? "thunder" : "rope-only";
}

RopeContract parse_contract(std::string_view name) {
  if (name == "thunder") return RopeContract::Thunder;
  if (name == "rope-only" || name == "rope_only") return RopeContract::RopeOnly;
  throw Error(detail::concat("unknown RoPE contract '", name, "'; valid: thunder, rope-only"));
}

std::string_view direction_name(Direction direction) {
  return direction == Direction::Forward ? "forward" : "backward";
}

bool expands_kv(const RopeConfig& config, RopeContract contract) {
  return contract == RopeContract::Thunder && config.n_query_groups != config.n_head;
}

int64_t kv_heads(const RopeConfig& config, RopeContract contract) {
  return expands_kv(config, contract) ? config.n_head : config.n_query_groups;
}

}  // namespace seam
