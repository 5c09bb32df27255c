#include "plan/dump.h"

#include <cstdio>
#include <cstdlib>

#include "support/error.h"

namespace seam {
namespace {

constexpr std::string_view kStages[] = {"segments", "plan", "kir", "cuda", "host"};

std::string_view env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string_view(value) : std::string_view();
}

}  // namespace

std::set<std::string, std::less<>> parse_dump_stages(std::string_view list) {
  std::set<std::string, std::less<>> stages;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (name.empty()) continue;
    bool known = false;
    for (std::string_view s : kStages) known = known || s == name;
    SEAM_CHECK(known, "SEAM_DUMP: unknown stage '", name, "' (segments, plan, kir, cuda or host)");
    stages.emplace(name);
  }
  return stages;
}

bool dump_enabled(std::string_view stage) {
  static const std::set<std::string, std::less<>> stages = parse_dump_stages(env_or_empty("SEAM_DUMP"));
  return stages.count(stage) > 0;
}

void dump(std::string_view stage, std::string_view what, const std::string& text) {
  if (!dump_enabled(stage)) return;
  std::fprintf(stderr, "// ---- SEAM_DUMP %.*s: %.*s\n%s", static_cast<int>(stage.size()), stage.data(),
               static_cast<int>(what.size()), what.data(), text.c_str());
  if (!text.empty() && text.back() != '\n') std::fputc('\n', stderr);
}

}  // namespace seam
