// libFuzzer target for the text format: any input either fails with seam::Error or parses; a parsed
// fusion must print, parse back and print identically. Anything else (a crash, a sanitizer report, an
// InternalError or other exception escaping) is a bug.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "support/error.h"
#include "text/parser.h"
#include "text/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<seam::Fusion> fusion;
  try {
    fusion.emplace(seam::parse_fusion(text, "fuzz"));
  } catch (const seam::Error&) {
    return 0;  // rejected with a message: fine
  }
  const std::string printed = seam::print_fusion(*fusion);
  std::string reprinted;
  try {
    reprinted = seam::print_fusion(seam::parse_fusion(printed, "printed"));
  } catch (const seam::Error& e) {
    std::fprintf(stderr, "printed text does not parse: %s\n--- printed ---\n%s", e.what(), printed.c_str());
    std::abort();
  }
  if (reprinted != printed) {
    std::fprintf(stderr, "print(parse(print(f))) != print(f)\n--- first ---\n%s--- second ---\n%s",
                 printed.c_str(), reprinted.c_str());
    std::abort();
  }
  return 0;
}
