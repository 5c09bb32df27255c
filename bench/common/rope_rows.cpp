#include "common/rope_rows.h"

#include <algorithm>

#include "support/error.h"

namespace seam::bench {

std::string RopeRow::id() const { return rope_config_id(*config); }
std::string RopeRow::label() const { return id() + " " + config->name; }

double floor_bytes(const RopeRow& row) {
  const RopeConfig& c = *row.config;
  const RopeOptions& o = row.options;
  const double B = static_cast<double>(o.batch), e = static_cast<double>(dtype_size(o.dtype));
  const double T = static_cast<double>(o.seq_len);
  const double kv = static_cast<double>(kv_heads(c, o.contract));
  const double head = T * static_cast<double>(c.head_size) * e;  // one head at all positions
  const double tables = 2.0 * T * static_cast<double>(c.rope_n_elem) * e;
  const double nh = static_cast<double>(c.n_head), ng = static_cast<double>(c.n_query_groups);
  if (o.direction == Direction::Backward) return B * (nh + 2 * kv) * head + tables + B * (nh + 2 * ng) * head;
  double read = B * (nh + ng) * head + tables;
  double write = B * (nh + kv) * head;
  if (expands_kv(c, o.contract)) {  // v materialized at nh heads
    read += B * ng * head;
    write += B * nh * head;
  }
  return read + write;
}

namespace {

// The workload ids of --only ("W2,W3"), each checked to name a workload.
std::vector<std::string> only_ids(const std::string& list) {
  std::vector<std::string> ids;
  for (size_t start = 0; !list.empty() && start <= list.size();) {
    const size_t end = std::min(list.find(',', start), list.size());
    ids.push_back(list.substr(start, end - start));
    const auto& configs = rope_configs();
    SEAM_CHECK(std::any_of(configs.begin(), configs.end(),
                           [&](const RopeConfig& c) { return rope_config_id(c) == ids.back(); }),
               "--only: unknown workload '", ids.back(), "' (W1-W9, comma-separated)");
    start = end + 1;
  }
  return ids;
}

}  // namespace

std::vector<RopeRow> select_rows(const RowFilter& f) {
  const std::vector<std::string> only = only_ids(f.only);
  std::vector<RopeRow> rows;
  auto add = [&](const RopeConfig& config, RopeContract contract, Direction direction, int64_t batch,
                 int64_t seq_len) {
    RopeRow row;
    row.config = &config;
    row.options.batch = batch;
    row.options.contract = contract;
    row.options.direction = direction;
    row.options.seq_len = seq_len ? seq_len : config.block_size;
    rows.push_back(row);
  };
  if (f.quick) {
    add(rope_config("W2"), RopeContract::Thunder, Direction::Forward, 2, f.seq_len);
    return rows;
  }
  if (f.t_sweep) {
    for (const char* id : {"W2", "W3"})
      for (int64_t T = 1024; T <= 32768; T *= 2)
        add(rope_config(id), RopeContract::Thunder, Direction::Forward, f.batch ? f.batch : 2, T);
    return rows;
  }
  const std::string direction = f.direction.empty() ? "forward" : f.direction;
  for (Direction d : {Direction::Forward, Direction::Backward}) {
    if (direction != "both" && direction != direction_name(d)) continue;
    for (RopeContract contract : {RopeContract::RopeOnly, RopeContract::Thunder}) {
      if (!f.contract.empty() && f.contract != contract_name(contract)) continue;
      for (const RopeConfig& config : rope_configs()) {
        if (!only.empty() && std::find(only.begin(), only.end(), rope_config_id(config)) == only.end())
          continue;
        // Backward rows: W1-W7 (Thunder's set) at bs 2 unless asked otherwise.
        if (d == Direction::Backward && f.only.empty() &&
            (config.name == "Phi-3.5-mini-instruct" || config.name == "gemma-2-9b"))
          continue;
        std::vector<int64_t> batches = {1, 2};
        if (f.batch)
          batches = {f.batch};
        else if (d == Direction::Backward)
          batches = {2};
        for (int64_t batch : batches) add(config, contract, d, batch, f.seq_len);
      }
    }
  }
  SEAM_CHECK(!rows.empty(), "no benchmark rows match --only '", f.only, "' --contract '", f.contract,
             "' --direction '", direction, "'", f.batch ? " --bs " + std::to_string(f.batch) : std::string(),
             " (workload ids W1-W9, comma-separated)");
  return rows;
}

}  // namespace seam::bench
