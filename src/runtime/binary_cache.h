// A cache of compiled kernels (any byte payload) by key: an in-memory map in front of an on-disk
// directory shared by processes. Disk entries are written to a temporary file and renamed into place, so
// a reader sees a whole entry or none; each file carries a header (magic, format version, key digest,
// payload length and checksum) so a truncated, corrupted or foreign file is detected and ignored, never
// loaded, and is overwritten by the next store. Disk problems never fail a lookup or a store: the cache
// is an optimization, so they count in stats() and the caller compiles instead.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "support/hash.h"

namespace seam {

// A key: the SHA-256 of everything that determines the payload (see runtime/kernel_cache.h).
struct CacheKey {
  Digest256 digest;
  std::string hex() const { return digest.hex(); }
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

struct BinaryCacheStats {
  int64_t memory_hits = 0;
  int64_t disk_hits = 0;
  int64_t misses = 0;
  int64_t stores = 0;
  int64_t disk_writes = 0;
  int64_t corrupt_files = 0;  // disk entries rejected by the header, length, digest or checksum checks
  int64_t disk_errors = 0;    // entries that could not be read or written (permissions, full disk)
};

class BinaryCache {
 public:
  // disk_dir empty: memory only.
  explicit BinaryCache(std::filesystem::path disk_dir = {});

  // The directory from the environment: SEAM_CACHE_DIR ("off" disables the disk cache, giving an empty
  // path), else $XDG_CACHE_HOME/seam, else $HOME/.cache/seam, else none.
  static std::filesystem::path default_disk_dir();
  // The process-wide cache, on default_disk_dir().
  static BinaryCache& shared();

  std::optional<std::string> lookup(const CacheKey& key);
  void store(const CacheKey& key, std::string_view payload);

  // Forgets the in-memory entries (the disk is untouched): the next lookup reads the disk.
  void clear_memory();
  BinaryCacheStats stats() const;
  const std::filesystem::path& disk_dir() const { return disk_dir_; }
  bool disk_enabled() const { return !disk_dir_.empty(); }
  // Where the entry of a key lives on disk.
  std::filesystem::path entry_path(const CacheKey& key) const;

  // The on-disk format, exposed for tests and tools.
  static constexpr char kMagic[8] = {'S', 'E', 'A', 'M', 'B', 'I', 'N', '\0'};
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr size_t kHeaderBytes = 8 + 4 + 4 + 32 + 8 + 8;  // magic, version, reserved, digest, length,
                                                                  // checksum
  static std::string encode_entry(const CacheKey& key, std::string_view payload);
  // The payload if bytes is a valid entry for key, else nothing.
  static std::optional<std::string> decode_entry(const CacheKey& key, std::string_view bytes);

 private:
  std::optional<std::string> read_disk(const CacheKey& key);
  void write_disk(const CacheKey& key, std::string_view payload);

  std::filesystem::path disk_dir_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::string> memory_;  // by key hex
  BinaryCacheStats stats_;
};

}  // namespace seam
