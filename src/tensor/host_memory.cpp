#include "tensor/host_memory.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "ir/limits.h"
#include "support/checked_math.h"
#include "support/error.h"

namespace seam {
namespace {

constexpr const char* kLimitVariable = "SEAM_HOST_MEMORY_LIMIT";

int64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  int64_t bytes = INT64_MAX;
  if (pages > 0 && page_size > 0) bytes = checked_mul(pages, page_size).value_or(INT64_MAX);
  // A container's limit ("max" when there is none).
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  std::string text;
  if (cgroup >> text) {
    const int64_t limited = parse_byte_count(text);
    if (limited > 0 && limited < bytes) bytes = limited;
  }
  return bytes;
}

}  // namespace

int64_t parse_byte_count(std::string_view text) {
  if (text.empty()) return -1;
  int shift = 0;
  switch (text.back()) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    default: break;
  }
  if (shift > 0) text.remove_suffix(1);
  if (text.empty()) return -1;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    const std::optional<int64_t> next = checked_mul(value, 10);
    if (!next) return -1;
    const std::optional<int64_t> sum = checked_add(*next, c - '0');
    if (!sum) return -1;
    value = *sum;
  }
  const std::optional<int64_t> scaled = checked_mul(value, int64_t{1} << shift);
  return scaled ? *scaled : -1;
}

int64_t host_memory_limit() {
  if (const char* text = std::getenv(kLimitVariable)) {
    const int64_t limit = parse_byte_count(text);
    SEAM_CHECK(limit >= 0, kLimitVariable, "='", text,
               "' is not a byte count (digits with an optional K, M, G or T suffix)");
    return limit;
  }
  static const int64_t physical = physical_memory();
  return physical;
}

void check_host_memory(int64_t bytes, std::string_view what) {
  const int64_t limit = host_memory_limit();
  SEAM_CHECK(bytes <= limit, what, " needs ", bytes, " bytes of host memory, over the limit of ", limit,
             " bytes (", std::getenv(kLimitVariable) ? "set by " : "this machine's memory; ", kLimitVariable,
             std::getenv(kLimitVariable) ? ")" : " sets another)");
}

void check_inputs_fit_host_memory(const Fusion& fusion) {
  int64_t total = 0;
  for (Value v : fusion.inputs()) {
    const Type& t = fusion.type(v);
    total += strided_storage_bytes(t.dtype, t.shape, fusion.input_strides(v));  // <= 2^40 each
  }
  check_host_memory(total, detail::concat("the inputs of fusion '", fusion.name(), "'"));
}

}  // namespace seam
