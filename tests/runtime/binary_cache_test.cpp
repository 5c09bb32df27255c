// The binary cache: memory and disk hits, corrupted entries never loaded, concurrent processes.
#include "runtime/binary_cache.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_env.h"

namespace seam {
namespace {

namespace fs = std::filesystem;

CacheKey key_of(const std::string& text) { return CacheKey{sha256(text)}; }

// Payload number i: distinct, large enough that a torn write would be visible.
std::string payload(int i, size_t bytes = 64 * 1024) {
  std::string s(bytes, '\0');
  for (size_t j = 0; j < bytes; ++j) s[j] = static_cast<char>((j * 131 + i * 17 + (j >> 9)) & 0xff);
  return s;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

class BinaryCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("seam_cache_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(BinaryCacheTest, MemoryOnlyMissThenHit) {
  BinaryCache cache;
  EXPECT_FALSE(cache.disk_enabled());
  const CacheKey key = key_of("kernel a");
  EXPECT_FALSE(cache.lookup(key));
  cache.store(key, "cubin bytes");
  EXPECT_EQ(cache.lookup(key), std::optional<std::string>("cubin bytes"));
  EXPECT_FALSE(cache.lookup(key_of("kernel b")));
  BinaryCacheStats stats = cache.stats();
  EXPECT_EQ(stats.memory_hits, 1);
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.stores, 1);
  EXPECT_EQ(stats.disk_writes, 0);
}

TEST_F(BinaryCacheTest, DiskEntriesSurviveTheProcessCache) {
  const CacheKey key = key_of("kernel a");
  {
    BinaryCache writer(dir_);
    writer.store(key, payload(1));
    EXPECT_EQ(writer.stats().disk_writes, 1);
  }
  EXPECT_TRUE(fs::exists(BinaryCache(dir_).entry_path(key)));
  BinaryCache reader(dir_);
  EXPECT_EQ(reader.lookup(key), payload(1));
  EXPECT_EQ(reader.lookup(key), payload(1));
  EXPECT_EQ(reader.stats().disk_hits, 1);
  EXPECT_EQ(reader.stats().memory_hits, 1);
  reader.clear_memory();
  EXPECT_EQ(reader.lookup(key), payload(1));
  EXPECT_EQ(reader.stats().disk_hits, 2);
  // No temporary files are left behind.
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

TEST_F(BinaryCacheTest, EntryRoundTripAndKeyCheck) {
  const CacheKey key = key_of("k");
  const std::string entry = BinaryCache::encode_entry(key, "payload");
  EXPECT_EQ(entry.size(), BinaryCache::kHeaderBytes + 7);
  EXPECT_EQ(BinaryCache::decode_entry(key, entry), std::optional<std::string>("payload"));
  EXPECT_FALSE(BinaryCache::decode_entry(key_of("other"), entry));
  EXPECT_EQ(BinaryCache::decode_entry(key, BinaryCache::encode_entry(key, "")),
            std::optional<std::string>(""));
}

// Each corruption of a stored entry: detected (a miss, counted), never loaded, and repaired by a store.
TEST_F(BinaryCacheTest, CorruptedEntriesAreIgnoredAndOverwritten) {
  const CacheKey key = key_of("kernel");
  const CacheKey other_key = key_of("another kernel");
  const std::string good = payload(7);
  std::string valid_entry = BinaryCache::encode_entry(key, good);

  struct Corruption {
    const char* what;
    std::string bytes;
  };
  std::vector<Corruption> corruptions;
  corruptions.push_back({"empty", ""});
  corruptions.push_back({"truncated header", valid_entry.substr(0, 20)});
  corruptions.push_back({"truncated payload", valid_entry.substr(0, valid_entry.size() - 1)});
  corruptions.push_back({"extra byte", valid_entry + "x"});
  std::string flipped_payload = valid_entry;
  flipped_payload[BinaryCache::kHeaderBytes + 1000] ^= 0x10;
  corruptions.push_back({"flipped payload byte", flipped_payload});
  std::string flipped_digest = valid_entry;
  flipped_digest[20] ^= 0x01;
  corruptions.push_back({"flipped digest byte", flipped_digest});
  std::string wrong_version = valid_entry;
  wrong_version[8] = 9;
  corruptions.push_back({"other format version", wrong_version});
  corruptions.push_back({"garbage", std::string(5000, '\xab')});
  corruptions.push_back({"entry of another key", BinaryCache::encode_entry(other_key, good)});

  for (const Corruption& c : corruptions) {
    SCOPED_TRACE(c.what);
    {
      BinaryCache setup(dir_);
      setup.store(key, good);
    }
    const fs::path path = BinaryCache(dir_).entry_path(key);
    write_file(path, c.bytes);

    BinaryCache cache(dir_);
    EXPECT_FALSE(cache.lookup(key));
    EXPECT_EQ(cache.stats().corrupt_files, 1);
    EXPECT_EQ(cache.stats().misses, 1);
    cache.store(key, good);  // what a caller does after recompiling
    EXPECT_EQ(read_file(path), valid_entry);
    BinaryCache fresh(dir_);
    EXPECT_EQ(fresh.lookup(key), good);
  }
}

// Several processes store and read the same key at once: a reader sees a whole valid payload or a miss,
// never a mixture, and the entry left is valid.
TEST_F(BinaryCacheTest, ConcurrentProcessesNeverSeeTornEntries) {
  const CacheKey key = key_of("shared kernel");
  constexpr int kProcesses = 6;
  constexpr int kRounds = 40;
  std::vector<std::string> payloads;
  for (int i = 0; i < kProcesses; ++i) payloads.push_back(payload(i, 256 * 1024));

  std::vector<pid_t> children;
  for (int i = 0; i < kProcesses; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int status = 0;
      for (int round = 0; round < kRounds && status == 0; ++round) {
        BinaryCache cache(dir_);  // a fresh cache each round, so every lookup reads the disk
        if (std::optional<std::string> seen = cache.lookup(key)) {
          if (std::find(payloads.begin(), payloads.end(), *seen) == payloads.end()) status = 1;
        }
        if (cache.stats().corrupt_files != 0) status = 2;
        cache.store(key, payloads[i]);
        if (cache.stats().disk_errors != 0) status = 3;
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: torn payload, 2: corrupt file seen, 3: write failed";
  }
  BinaryCache cache(dir_);
  std::optional<std::string> final_payload = cache.lookup(key);
  ASSERT_TRUE(final_payload);
  EXPECT_NE(std::find(payloads.begin(), payloads.end(), *final_payload), payloads.end());
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) files += entry.is_regular_file();
  EXPECT_EQ(files, 1);  // the entry, and no leftover temporary file
}

TEST_F(BinaryCacheTest, UnwritableDirectoryIsNotAnError) {
  BinaryCache cache("/proc/seam_cannot_write_here");
  const CacheKey key = key_of("k");
  EXPECT_NO_THROW(cache.store(key, "bytes"));
  EXPECT_EQ(cache.stats().disk_errors, 1);
  EXPECT_EQ(cache.lookup(key), std::optional<std::string>("bytes"));  // memory still works
}

TEST_F(BinaryCacheTest, DefaultDirectoryFromEnvironment) {
  ScopedEnv xdg("XDG_CACHE_HOME", "/xdg/cache");
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv env("SEAM_CACHE_DIR", "/custom/seam");
    EXPECT_EQ(BinaryCache::default_disk_dir(), fs::path("/custom/seam"));
  }
  {
    ScopedEnv env("SEAM_CACHE_DIR", "off");
    EXPECT_TRUE(BinaryCache::default_disk_dir().empty());
  }
  ScopedEnv env("SEAM_CACHE_DIR", std::nullopt);
  EXPECT_EQ(BinaryCache::default_disk_dir(), fs::path("/xdg/cache/seam"));
  {
    ScopedEnv no_xdg("XDG_CACHE_HOME", std::nullopt);
    EXPECT_EQ(BinaryCache::default_disk_dir(), fs::path("/home/someone/.cache/seam"));
  }
}

TEST_F(BinaryCacheTest, DisabledDiskWritesNothing) {
  ScopedEnv env("SEAM_CACHE_DIR", "off");
  BinaryCache cache(BinaryCache::default_disk_dir());
  EXPECT_FALSE(cache.disk_enabled());
  cache.store(key_of("k"), "bytes");
  EXPECT_EQ(cache.stats().disk_writes, 0);
  EXPECT_EQ(cache.stats().disk_errors, 0);
  EXPECT_FALSE(fs::exists(dir_));
}

}  // namespace
}  // namespace seam
