// The parser of the text format (docs/FORMAT.md): one fusion per text, built through Builder::add so
// every shape and dtype rule applies. Every error is a seam::Error reading
// "FILE:LINE:COL: error: MESSAGE".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ir/fusion.h"

namespace seam {

// Limits that keep hostile text from overflowing shape arithmetic or exhausting memory, on top of the
// size limits every fusion obeys (ir/limits.h: elements, bytes, rank, fusion size).
struct TextLimits {
  static constexpr size_t kMaxBytes = size_t{1} << 30;      // whole text
  static constexpr int64_t kMaxInteger = int64_t{1} << 40;  // |integer| in a type or int attribute
  static constexpr int kMaxOperands = 1 << 16;              // per statement
};

Fusion parse_fusion(std::string_view text, std::string_view filename = "<input>");

// Reads and parses a file; the path names the file in error messages.
Fusion parse_fusion_file(const std::string& path);

}  // namespace seam
