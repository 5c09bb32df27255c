// Hashing: a fast 64-bit hash (XXH64) for hash tables and checksums, and SHA-256 digests for keys that
// name stored artifacts (the binary cache), where a collision would silently load the wrong kernel.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace seam {

// XXH64 of bytes: fast, well mixed, not collision-resistant against an adversary.
uint64_t hash64(std::string_view bytes, uint64_t seed = 0);

// Mixes a value into a running 64-bit hash (boost::hash_combine style, 64-bit constants).
inline uint64_t hash_combine(uint64_t seed, uint64_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 12) + (seed >> 4));
}

// A SHA-256 digest. Keys built from it collide with probability about 2^-128 even over billions of keys.
struct Digest256 {
  std::array<uint8_t, 32> bytes{};

  std::string hex() const;  // 64 lowercase hex digits
  // The first 8 bytes, big-endian: a well-distributed 64-bit summary of the digest.
  uint64_t prefix64() const;

  friend bool operator==(const Digest256&, const Digest256&) = default;
  friend auto operator<=>(const Digest256&, const Digest256&) = default;
};

// Incremental SHA-256 (FIPS 180-4).
class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view bytes);
  // Appends the length (8 bytes) then the bytes, so that a sequence of fields hashes unambiguously:
  // ("ab", "c") and ("a", "bc") give different digests.
  Sha256& update_field(std::string_view bytes);
  Sha256& update_u64(uint64_t value);  // 8 bytes, little-endian
  // Pads and returns the digest; the object must not be updated afterwards.
  Digest256 finish();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
  bool finished_ = false;
};

Digest256 sha256(std::string_view bytes);

}  // namespace seam
