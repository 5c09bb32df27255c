#include "runtime/binary_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "runtime/runtime_env.h"

namespace seam {
namespace {

// Entries larger than this are not kernels: refuse to read them into memory.
constexpr uint64_t kMaxPayloadBytes = uint64_t{1} << 30;

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t get_le(std::string_view bytes, size_t offset, int width) {
  uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[offset + i]);
  return v;
}

// Writes all bytes to fd, retrying short writes and interrupts.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

BinaryCache::BinaryCache(std::filesystem::path disk_dir) : disk_dir_(std::move(disk_dir)) {}

std::filesystem::path BinaryCache::default_disk_dir() {
  if (std::optional<std::string> dir = env_string("SEAM_CACHE_DIR")) {
    if (*dir == "off" || *dir == "OFF" || *dir == "0") return {};
    return *dir;
  }
  if (std::optional<std::string> xdg = env_string("XDG_CACHE_HOME"))
    return std::filesystem::path(*xdg) / "seam";
  if (std::optional<std::string> home = env_string("HOME")) {
    return std::filesystem::path(*home) / ".cache" / "seam";
  }
  return {};
}

BinaryCache& BinaryCache::shared() {
  static BinaryCache* cache = new BinaryCache(default_disk_dir());  // lives until exit
  return *cache;
}

std::filesystem::path BinaryCache::entry_path(const CacheKey& key) const {
  // The format version is in the directory name so that a future format never meets this one's files.
  return disk_dir_ / ("kernels-v" + std::to_string(kFormatVersion)) / (key.hex() + ".bin");
}

std::string BinaryCache::encode_entry(const CacheKey& key, std::string_view payload) {
  std::string out(kMagic, sizeof(kMagic));
  put_u32(out, kFormatVersion);
  put_u32(out, 0);  // reserved
  out.append(reinterpret_cast<const char*>(key.digest.bytes.data()), key.digest.bytes.size());
  put_u64(out, payload.size());
  put_u64(out, hash64(payload));
  out.append(payload);
  return out;
}

std::optional<std::string> BinaryCache::decode_entry(const CacheKey& key, std::string_view bytes) {
  if (bytes.size() < kHeaderBytes) return std::nullopt;
  if (std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) return std::nullopt;
  if (get_le(bytes, 8, 4) != kFormatVersion) return std::nullopt;
  if (std::memcmp(bytes.data() + 16, key.digest.bytes.data(), key.digest.bytes.size()) != 0)
    return std::nullopt;
  uint64_t length = get_le(bytes, 48, 8);
  uint64_t checksum = get_le(bytes, 56, 8);
  if (length != bytes.size() - kHeaderBytes) return std::nullopt;
  std::string_view payload = bytes.substr(kHeaderBytes);
  if (hash64(payload) != checksum) return std::nullopt;
  return std::string(payload);
}

std::optional<std::string> BinaryCache::lookup(const CacheKey& key) {
  const std::string hex = key.hex();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = memory_.find(hex);
    if (it != memory_.end()) {
      ++stats_.memory_hits;
      return it->second;
    }
  }
  std::optional<std::string> payload = disk_enabled() ? read_disk(key) : std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!payload) {
    ++stats_.misses;
    return std::nullopt;
  }
  ++stats_.disk_hits;
  memory_.emplace(hex, *payload);
  return payload;
}

void BinaryCache::store(const CacheKey& key, std::string_view payload) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.stores;
    memory_.insert_or_assign(key.hex(), std::string(payload));
  }
  if (disk_enabled()) write_disk(key, payload);
}

std::optional<std::string> BinaryCache::read_disk(const CacheKey& key) {
  const std::filesystem::path path = entry_path(key);
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return std::nullopt;
  const uintmax_t size = std::filesystem::file_size(path, error);
  bool readable = !error;
  std::string bytes;
  if (readable && size <= kHeaderBytes + kMaxPayloadBytes) {
    std::ifstream in(path, std::ios::binary);
    bytes.resize(static_cast<size_t>(size));
    readable = in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())) &&
               in.gcount() == (std::streamsize)size;
  }
  std::optional<std::string> payload = readable ? decode_entry(key, bytes) : std::nullopt;
  if (!payload) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++(readable ? stats_.corrupt_files : stats_.disk_errors);
  }
  return payload;
}

void BinaryCache::write_disk(const CacheKey& key, std::string_view payload) {
  static std::atomic<uint64_t> counter{0};
  const std::filesystem::path path = entry_path(key);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  // A name no other process or thread uses, in the same directory so that rename is atomic.
  const std::filesystem::path temp =
      path.parent_path() /
      ("." + key.hex() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1)));
  const std::string entry = encode_entry(key, payload);
  bool ok = false;
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd >= 0) {
    ok = write_all(fd, entry);
    ok = (::close(fd) == 0) && ok;
    // rename replaces any existing entry (a corrupt one too) in one step: readers see old or new.
    ok = ok && ::rename(temp.c_str(), path.c_str()) == 0;
    if (!ok) ::unlink(temp.c_str());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++(ok ? stats_.disk_writes : stats_.disk_errors);
}

void BinaryCache::clear_memory() {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.clear();
}

BinaryCacheStats BinaryCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace seam
