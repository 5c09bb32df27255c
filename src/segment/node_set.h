// A set of nodes as a bitset over dense indices: the segmenter's groups and down-sets. Hashable, so the
// exact search can memoize down-sets and predicate calls.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace seam {

class NodeSet {
 public:
  NodeSet() = default;
  explicit NodeSet(int size) : size_(size), words_(static_cast<size_t>((size + 63) / 64)) {}

  int size() const { return size_; }  // the universe, not the count
  bool test(int i) const { return (words_[static_cast<size_t>(i) >> 6] >> (i & 63)) & 1; }
  void set(int i) { words_[static_cast<size_t>(i) >> 6] |= uint64_t{1} << (i & 63); }
  void reset(int i) { words_[static_cast<size_t>(i) >> 6] &= ~(uint64_t{1} << (i & 63)); }

  int count() const {
    int n = 0;
    for (uint64_t w : words_) n += std::popcount(w);
    return n;
  }
  bool empty() const {
    for (uint64_t w : words_)
      if (w) return false;
    return true;
  }
  bool is_subset_of(const NodeSet& other) const {
    for (size_t i = 0; i < words_.size(); ++i)
      if (words_[i] & ~other.words_[i]) return false;
    return true;
  }
  bool intersects(const NodeSet& other) const {
    for (size_t i = 0; i < words_.size(); ++i)
      if (words_[i] & other.words_[i]) return true;
    return false;
  }
  NodeSet& operator|=(const NodeSet& other) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] |= other.words_[i];
    return *this;
  }
  NodeSet& operator-=(const NodeSet& other) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] &= ~other.words_[i];
    return *this;
  }
  friend NodeSet operator|(NodeSet a, const NodeSet& b) { return a |= b; }
  friend NodeSet operator-(NodeSet a, const NodeSet& b) { return a -= b; }
  friend bool operator==(const NodeSet& a, const NodeSet& b) {
    return a.size_ == b.size_ && a.words_ == b.words_;
  }

  // Members in ascending order.
  std::vector<int> members() const {
    std::vector<int> out;
    for (size_t w = 0; w < words_.size(); ++w)
      for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
        out.push_back(static_cast<int>(w * 64 + static_cast<size_t>(std::countr_zero(bits))));
    return out;
  }
  // Calls f(i) for each member, ascending, without allocating.
  template <typename F>
  void for_each(F&& f) const {
    for (size_t w = 0; w < words_.size(); ++w)
      for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
        f(static_cast<int>(w * 64 + static_cast<size_t>(std::countr_zero(bits))));
  }
  int last() const {
    for (size_t w = words_.size(); w-- > 0;)
      if (words_[w]) return static_cast<int>(w * 64 + 63 - static_cast<size_t>(std::countl_zero(words_[w])));
    return -1;
  }
  int first() const {
    for (size_t w = 0; w < words_.size(); ++w)
      if (words_[w]) return static_cast<int>(w * 64 + static_cast<size_t>(std::countr_zero(words_[w])));
    return -1;
  }

  size_t hash() const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(size_);
    for (uint64_t w : words_) {
      h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return static_cast<size_t>(h ^ (h >> 33));
  }

 private:
  // Words inline up to 256 nodes (no allocation when the search copies a set), on the heap beyond.
  class Words {
   public:
    Words() = default;
    explicit Words(size_t n) : n_(n) {
      if (n > kInline) heap_.assign(n, 0);
    }
    size_t size() const { return n_; }
    uint64_t& operator[](size_t i) { return n_ > kInline ? heap_[i] : inline_[i]; }
    uint64_t operator[](size_t i) const { return n_ > kInline ? heap_[i] : inline_[i]; }
    const uint64_t* begin() const { return n_ > kInline ? heap_.data() : inline_.data(); }
    const uint64_t* end() const { return begin() + n_; }
    friend bool operator==(const Words& a, const Words& b) {
      if (a.n_ != b.n_) return false;
      for (size_t i = 0; i < a.n_; ++i)
        if (a[i] != b[i]) return false;
      return true;
    }

   private:
    static constexpr size_t kInline = 4;
    size_t n_ = 0;
    std::array<uint64_t, kInline> inline_{};
    std::vector<uint64_t> heap_;
  };
  int size_ = 0;
  Words words_;
};

struct NodeSetHash {
  size_t operator()(const NodeSet& s) const { return s.hash(); }
};

}  // namespace seam
