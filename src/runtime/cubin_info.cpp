#include "runtime/cubin_info.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace seam {
namespace {

// Little-endian reads that fail (nullopt) instead of reading past the end.
template <typename T>
std::optional<T> read(std::string_view bytes, uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

struct Section {
  uint32_t name, type, link;
  uint64_t offset, size, entry_size;  // size: bytes in the file (0 for NOBITS)
};

constexpr uint32_t kSymbolTable = 2;      // SHT_SYMTAB
constexpr uint32_t kNoBits = 8;           // SHT_NOBITS: occupies memory, not file bytes (.nv.shared.*)
constexpr uint8_t kValueFormat = 0x04;    // .nv.info attribute with a 16-bit size and a value
constexpr uint8_t kRegisterCount = 0x2f;  // value: symbol index (u32), registers (u32)

std::optional<std::vector<Section>> sections(std::string_view elf) {
  if (elf.size() < 64 ||
      elf.substr(0, 4) != std::string_view("\x7f"
                                           "ELF",
                                           4) ||
      elf[4] != 2 || elf[5] != 1)
    return std::nullopt;  // not ELF64, little-endian
  auto table = read<uint64_t>(elf, 0x28);
  auto entry = read<uint16_t>(elf, 0x3A), count = read<uint16_t>(elf, 0x3C);
  if (!table || !entry || !count || *entry < 64) return std::nullopt;
  std::vector<Section> result;
  for (uint16_t i = 0; i < *count; ++i) {
    const uint64_t at = *table + static_cast<uint64_t>(i) * *entry;
    auto name = read<uint32_t>(elf, at), type = read<uint32_t>(elf, at + 4),
         link = read<uint32_t>(elf, at + 40);
    auto offset = read<uint64_t>(elf, at + 24), size = read<uint64_t>(elf, at + 32);
    auto entry_size = read<uint64_t>(elf, at + 56);
    if (!name || !type || !link || !offset || !size || !entry_size) return std::nullopt;
    // A NOBITS section's size is memory at run time; it has no bytes in the file to bound or read.
    const uint64_t file_size = *type == kNoBits ? 0 : *size;
    if (*offset > elf.size() || elf.size() - *offset < file_size) return std::nullopt;
    result.push_back({*name, *type, *link, *offset, file_size, *entry_size});
  }
  return result;
}

std::string_view string_at(std::string_view elf, const Section& strings, uint64_t index) {
  if (index >= strings.size) return {};
  std::string_view table = elf.substr(strings.offset, strings.size);
  const size_t end = table.find('\0', index);
  return end == std::string_view::npos ? std::string_view{} : table.substr(index, end - index);
}

}  // namespace

std::optional<int> cubin_registers(std::string_view cubin, std::string_view symbol) {
  auto list = sections(cubin);
  if (!list) return std::nullopt;
  auto names_index = read<uint16_t>(cubin, 0x3E);
  if (!names_index || *names_index >= list->size()) return std::nullopt;
  const Section& names = (*list)[*names_index];
  // The symbol's index in the symbol table.
  std::optional<uint32_t> index;
  for (const Section& s : *list) {
    if (s.type != kSymbolTable || s.link >= list->size() || s.entry_size < 24) continue;
    for (uint64_t k = 0; k * s.entry_size + 24 <= s.size; ++k) {
      auto name = read<uint32_t>(cubin, s.offset + k * s.entry_size);
      if (name && string_at(cubin, (*list)[s.link], *name) == symbol) index = static_cast<uint32_t>(k);
    }
  }
  if (!index) return std::nullopt;
  // The module-wide .nv.info section lists (symbol, registers) pairs.
  for (const Section& s : *list) {
    if (string_at(cubin, names, s.name) != ".nv.info") continue;
    for (uint64_t at = s.offset; at + 4 <= s.offset + s.size;) {
      const uint8_t format = static_cast<uint8_t>(cubin[at]), attribute = static_cast<uint8_t>(cubin[at + 1]);
      if (format != kValueFormat) {
        at += 4;
        continue;
      }
      auto size = read<uint16_t>(cubin, at + 2);
      if (!size) break;
      if (attribute == kRegisterCount && *size >= 8) {
        auto owner = read<uint32_t>(cubin, at + 4), registers = read<uint32_t>(cubin, at + 8);
        if (owner && registers && *owner == *index) return static_cast<int>(*registers);
      }
      at += 4 + *size;
    }
  }
  return std::nullopt;
}

}  // namespace seam
