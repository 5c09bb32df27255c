#include "runtime/runtime_env.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "support/error.h"

namespace seam {

std::optional<std::string> env_string(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

bool env_flag(const char* name) {
  std::optional<std::string> value = env_string(name);
  if (!value) return false;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off") return false;
  throw Error(std::string("environment variable ") + name + "='" + *value +
              "' is not a flag: use 1/0, true/false, yes/no or on/off");
}

}  // namespace seam
