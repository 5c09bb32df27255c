#include "support/npy.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

#include "support/error.h"

namespace seam {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

// The header dict is a Python literal; this reads just the subset NumPy writes: a dict of string keys
// whose values are strings, True/False, or tuples of integers.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  NpyArray parse() {
    NpyArray array;
    bool has_descr = false, has_order = false, has_shape = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = parse_string("a dict key");
      expect(':');
      skip_space();
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"') fail("unsupported descr (structured or sub-array dtype)");
        array.descr = parse_string("the descr");
        has_descr = true;
      } else if (key == "fortran_order") {
        array.fortran_order = parse_bool();
        has_order = true;
      } else if (key == "shape") {
        array.shape = parse_int_tuple();
        has_shape = true;
      } else {
        fail("unexpected key '" + key + "' in the header dict");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') fail("expected ',' or '}' in the header dict");
    }
    expect('}');
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the header dict");
    if (!has_descr) fail("header dict has no 'descr'");
    if (!has_order) fail("header dict has no 'fortran_order'");
    if (!has_shape) fail("header dict has no 'shape'");
    return array;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw Error(detail::concat(source_, ": malformed .npy header: ", problem, " (at offset ", pos_,
                               " of header '", text_, "')"));
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string parse_string(const char* what) {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail(std::string("expected a quoted string for ") + what);
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  bool parse_bool() {
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("fortran_order must be True or False");
  }
  int64_t parse_int() {
    skip_space();
    const size_t start = pos_;
    int64_t value = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const int digit = peek() - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) fail("shape extent too large");
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) fail("expected a non-negative integer in the shape");
    if (peek() == 'L') ++pos_;  // Python 2 long literals, as old NumPy wrote them
    return value;
  }
  std::vector<int64_t> parse_int_tuple() {
    std::vector<int64_t> values;
    expect('(');
    while (true) {
      skip_space();
      if (peek() == ')') break;
      values.push_back(parse_int());
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ')') fail("expected ',' or ')' in the shape");
    }
    ++pos_;
    return values;
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
};

uint64_t read_little_endian(const std::vector<std::byte>& bytes, size_t offset, int size) {
  uint64_t v = 0;
  for (int i = 0; i < size; ++i) v |= static_cast<uint64_t>(bytes[offset + i]) << (8 * i);
  return v;
}

// product(shape) * item_size, or nothing when it overflows int64.
std::optional<int64_t> data_bytes(const std::vector<int64_t>& shape, int64_t item_size) {
  int64_t n = item_size;
  for (int64_t e : shape) {
    if (e != 0 && n > std::numeric_limits<int64_t>::max() / e) return std::nullopt;
    n *= e;
  }
  return n;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

}  // namespace

int64_t npy_item_size(const std::string& descr, const std::string& source) {
  SEAM_CHECK(descr.size() >= 3 && std::string_view("<>|=").find(descr[0]) != std::string_view::npos &&
                 std::isalpha(static_cast<unsigned char>(descr[1])),
             source, ": unsupported .npy descr '", descr, "'");
  int64_t size = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    SEAM_CHECK(std::isdigit(static_cast<unsigned char>(descr[i])) && size < 1000000, source,
               ": unsupported .npy descr '", descr, "'");
    size = size * 10 + (descr[i] - '0');
  }
  SEAM_CHECK(size > 0, source, ": unsupported .npy descr '", descr, "' (zero item size)");
  SEAM_CHECK(descr[0] != '>' || size == 1, source, ": big-endian .npy data ('", descr,
             "') is not supported; save it little-endian");
  return size;
}

NpyArray parse_npy(const std::vector<std::byte>& bytes, const std::string& source) {
  SEAM_CHECK(bytes.size() >= kMagicSize && std::memcmp(bytes.data(), kMagic, kMagicSize) == 0, source,
             ": not a .npy file (bad magic; expected \\x93NUMPY)");
  SEAM_CHECK(bytes.size() >= kMagicSize + 2, source, ": truncated .npy file (no version)");
  const int major = static_cast<int>(bytes[6]);
  const int minor = static_cast<int>(bytes[7]);
  SEAM_CHECK((major == 1 || major == 2 || major == 3) && minor == 0, source, ": unsupported .npy version ",
             major, ".", minor, " (supported: 1.0, 2.0, 3.0)");
  const int length_size = major == 1 ? 2 : 4;
  const size_t header_start = kMagicSize + 2 + length_size;
  SEAM_CHECK(bytes.size() >= header_start, source, ": truncated .npy file (no header length)");
  const uint64_t header_length = read_little_endian(bytes, kMagicSize + 2, length_size);
  SEAM_CHECK(bytes.size() - header_start >= header_length, source, ": truncated .npy header (says ",
             header_length, " bytes, file has ", bytes.size() - header_start, " after the length)");
  const std::string header(reinterpret_cast<const char*>(bytes.data()) + header_start, header_length);

  NpyArray array = HeaderParser(header, source).parse();
  const int64_t item_size = npy_item_size(array.descr, source);
  const std::optional<int64_t> expected = data_bytes(array.shape, item_size);
  const uint64_t data_start = header_start + header_length;
  const uint64_t available = bytes.size() - data_start;
  SEAM_CHECK(expected.has_value() && static_cast<uint64_t>(*expected) == available, source,
             ": .npy data length mismatch: shape ", shape_text(array.shape), " of '", array.descr, "' needs ",
             expected ? std::to_string(*expected) : "too many", " bytes, the file has ", available);
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
  return array;
}

std::vector<std::byte> format_npy(const NpyArray& array) {
  const int64_t item_size = npy_item_size(array.descr, "format_npy");
  const std::optional<int64_t> expected = data_bytes(array.shape, item_size);
  SEAM_CHECK(expected && static_cast<uint64_t>(*expected) == array.data.size(),
             "format_npy: ", array.data.size(), " data bytes do not match the shape and descr '", array.descr,
             "'");

  std::string dict = "{'descr': '" + array.descr +
                     "', 'fortran_order': " + (array.fortran_order ? "True" : "False") + ", 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    dict += std::to_string(array.shape[i]) + (i + 1 < array.shape.size() ? ", " : "");
  if (array.shape.size() == 1) dict += ",";  // a Python 1-tuple
  dict += "), }";

  // Pad with spaces and a final newline so that the data starts on a 64-byte boundary, as NumPy does.
  auto padded_length = [&](size_t prefix) {
    const size_t unpadded = prefix + dict.size() + 1;
    return dict.size() + 1 + (64 - unpadded % 64) % 64;
  };
  int major = 1;
  size_t header_length = padded_length(kMagicSize + 2 + 2);
  if (header_length > 0xFFFF) {
    major = 2;
    header_length = padded_length(kMagicSize + 2 + 4);
  }
  std::string header = dict + std::string(header_length - dict.size() - 1, ' ') + "\n";

  // Magic, version, header length (little-endian), header, data: sized once, then copied in.
  std::string prefix(kMagic, kMagicSize);
  prefix += static_cast<char>(major);
  prefix += '\0';
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    prefix += static_cast<char>((header_length >> (8 * i)) & 0xFF);
  prefix += header;
  std::vector<std::byte> bytes(prefix.size() + array.data.size());
  std::memcpy(bytes.data(), prefix.data(), prefix.size());
  if (!array.data.empty()) std::memcpy(bytes.data() + prefix.size(), array.data.data(), array.data.size());
  return bytes;
}

NpyArray read_npy_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  SEAM_CHECK(in.good(), path, ": cannot open .npy file for reading");
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  SEAM_CHECK(!in.bad(), path, ": error reading .npy file");
  std::vector<std::byte> bytes(chars.size());
  if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());
  return parse_npy(bytes, path);
}

void write_npy_file(const std::string& path, const NpyArray& array) {
  const std::vector<std::byte> bytes = format_npy(array);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  SEAM_CHECK(out.good(), path, ": cannot open .npy file for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  SEAM_CHECK(out.good(), path, ": error writing .npy file");
}

}  // namespace seam
