// Tests of support/hash: XXH64 and SHA-256 against published and independently computed vectors.
#include "support/hash.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support/error.h"

namespace seam {
namespace {

// Bytes (i*7+3) mod 251, the pattern the SHA-256 vectors below were computed on (Python hashlib).
std::string pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 7 + 3) % 251);
  return s;
}

TEST(Hash64, MatchesReferenceXxh64) {
  EXPECT_EQ(hash64(""), 0xef46db3751d8e999ULL);
  EXPECT_EQ(hash64("a"), 0xd24ec4f1a98c6e5bULL);
  EXPECT_EQ(hash64("abc"), 0x44bc2cf5ad770999ULL);
}

TEST(Hash64, SeedAndEveryByteMatter) {
  const std::string base = pattern(100);  // exercises the 32-byte stripes and every tail path
  EXPECT_NE(hash64(base, 0), hash64(base, 1));
  std::set<uint64_t> seen = {hash64(base)};
  for (size_t i = 0; i < base.size(); ++i) {
    std::string changed = base;
    changed[i] ^= 1;
    EXPECT_TRUE(seen.insert(hash64(changed)).second) << "byte " << i;
  }
  std::set<uint64_t> lengths;
  for (size_t n = 0; n <= 70; ++n) lengths.insert(hash64(pattern(n)));
  EXPECT_EQ(lengths.size(), 71u);
}

TEST(Sha256, MatchesFips180Vectors) {
  EXPECT_EQ(sha256("").hex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256("abc").hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex(),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256(std::string(1000000, 'a')).hex(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  const std::pair<size_t, const char*> vectors[] = {
      {55, "1deace58c745f3ecadde68a5923f494c3703fa73f0306483ccb898a5826e8d70"},
      {56, "06dbe23685750e4d3881ded95047abaf93fa8f9c5d3501dc57c717a72ff1398e"},
      {63, "47fb38b12335c9298d09280515c0666489a189d1554bb0ac1a0740806ce9d8b6"},
      {64, "dfa798724b1a8014994f363e5da7474ed26ce3757fb29e07aa47ad5a9352d37b"},
      {65, "dd2eab5a5507d7717c63ce953d9ac61752c21e664425ad1227054722a0d97f69"},
      {119, "c6e0f435df5d7d265baacca31e0602c00aa22fa6d3819aed664649294c743756"},
      {120, "17eb8960823a644bde3065620bb9d45931fe8993fd8eb692a17aff0fd725db6a"},
      {1000, "a9425c416f534025a4e2422bd14adba4ec3d4a68d10c3329be8df612964d2b6e"},
  };
  for (const auto& [n, hex] : vectors) EXPECT_EQ(sha256(pattern(n)).hex(), hex) << n << " bytes";
}

TEST(Sha256, IncrementalEqualsOneShot) {
  const std::string data = pattern(1000);
  for (size_t split : {0, 1, 63, 64, 65, 500, 999, 1000}) {
    Sha256 sha;
    sha.update(std::string_view(data).substr(0, split)).update(std::string_view(data).substr(split));
    EXPECT_EQ(sha.finish(), sha256(data)) << "split at " << split;
  }
}

TEST(Sha256, FieldsAreUnambiguous) {
  Digest256 ab_c = Sha256().update_field("ab").update_field("c").finish();
  Digest256 a_bc = Sha256().update_field("a").update_field("bc").finish();
  EXPECT_NE(ab_c, a_bc);
  EXPECT_NE(ab_c, sha256("abc"));
}

TEST(Sha256, UpdateAfterFinishIsABug) {
  Sha256 sha;
  sha.finish();
  EXPECT_THROW(sha.update("x"), InternalError);
}

TEST(Digest256, Prefix64IsTheFirstEightBytes) {
  Digest256 d = sha256("abc");
  EXPECT_EQ(d.prefix64(), 0xba7816bf8f01cfeaULL);
}

}  // namespace
}  // namespace seam
