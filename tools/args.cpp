#include "args.h"

#include <charconv>

#include "support/error.h"

namespace seam::tool {

Args::Args(int argc, char** argv, int first, std::set<std::string> switches) {
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() == 2 && arg[0] == '-' && arg[1] != '-') {  // -o FILE: a one-letter option
      SEAM_CHECK(i + 1 < argc, "option ", arg, " needs a value");
      options_.emplace(arg.substr(1), argv[++i]);
      continue;
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      positional_.push_back(arg);
      continue;
    }
    std::string key = arg.substr(2), value;
    size_t eq = key.find('=');
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    } else if (switches.count(key)) {
      value = "true";
    } else {
      SEAM_CHECK(i + 1 < argc, "option --", key, " needs a value");
      value = argv[++i];
    }
    options_.emplace(key, value);
  }
}

std::string Args::positional_at(size_t i, const char* what) const {
  SEAM_CHECK(i < positional_.size(), "missing argument: ", what);
  return positional_[i];
}

bool Args::has(const std::string& key) {
  used_.insert(key);
  return options_.count(key) > 0;
}

std::optional<std::string> Args::get(const std::string& key) {
  used_.insert(key);
  auto it = options_.find(key);
  if (it == options_.end()) return std::nullopt;
  return it->second;
}

std::string Args::get_or(const std::string& key, const std::string& fallback) {
  return get(key).value_or(fallback);
}

int64_t Args::get_int(const std::string& key, int64_t fallback) {
  auto text = get(key);
  if (!text) return fallback;
  int64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  SEAM_CHECK(error == std::errc() && end == text->data() + text->size(), "option --", key,
             " needs an integer, got '", *text, "'");
  return value;
}

double Args::get_double(const std::string& key, double fallback) {
  auto text = get(key);
  if (!text) return fallback;
  try {
    size_t used = 0;
    double value = std::stod(*text, &used);
    SEAM_CHECK(used == text->size(), "");
    return value;
  } catch (const std::exception&) {
    throw Error(detail::concat("option --", key, " needs a number, got '", *text, "'"));
  }
}

std::vector<std::string> Args::get_all(const std::string& key) {
  used_.insert(key);
  std::vector<std::string> values;
  auto [begin, end] = options_.equal_range(key);
  for (auto it = begin; it != end; ++it) values.push_back(it->second);
  return values;
}

void Args::reject_unused() const {
  for (const auto& [key, value] : options_)
    SEAM_CHECK(used_.count(key), "unknown option --", key, " (see seam help)");
}

}  // namespace seam::tool
