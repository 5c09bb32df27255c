// .npy reading and writing: round trips for every dtype, files in NumPy's exact layout, and an error
// for every kind of malformed file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "tensor/tensor_npy.h"
#include "testing/error_message.h"

namespace seam {
namespace {

using testing_errors::error_of;

std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

// A .npy file: magic, version, little-endian header length (2 bytes for 1.0, 4 otherwise), header, data.
std::string npy_file(int major, const std::string& header, const std::string& data) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const size_t n = header.size();
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i) out += static_cast<char>((n >> (8 * i)) & 0xFF);
  return out + header + data;
}

std::string raw(const void* p, size_t n) { return std::string(static_cast<const char*>(p), n); }

HostTensor parse(const std::string& file, std::optional<DType> expected = std::nullopt) {
  return host_tensor_from_npy(parse_npy(bytes_of(file), "test.npy"), expected, "test.npy");
}

class NpyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("seam_npy_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(NpyFiles, RoundTripEveryDtype) {
  std::mt19937_64 rng(3);
  for (DType dtype : kAllDTypes) {
    for (const Shape& shape : {Shape{}, Shape{5}, Shape{2, 3, 4}, Shape{0, 3}}) {
      HostTensor t = HostTensor::random(dtype, shape, rng);
      const std::string file = path(std::string(dtype_name(dtype)) + ".npy");
      write_npy(file, t);
      HostTensor back = read_npy(file, dtype);
      EXPECT_EQ(back.dtype(), dtype);
      EXPECT_EQ(back.shape(), shape);
      EXPECT_EQ(back.storage(), t.storage()) << dtype_name(dtype) << shape_to_string(shape);
    }
  }
}

TEST_F(NpyFiles, SpecialFloatValuesSurvive) {
  const double inf = std::numeric_limits<double>::infinity();
  HostTensor t = HostTensor::from_doubles(DType::Float16, {4}, {inf, -0.0, std::ldexp(1.0, -24), 65504});
  write_npy(path("h.npy"), t);
  HostTensor back = read_npy(path("h.npy"));
  EXPECT_EQ(back.dtype(), DType::Float16);
  EXPECT_EQ(back.storage(), t.storage());
}

TEST_F(NpyFiles, WritesNumPysLayout) {
  write_npy(path("a.npy"), HostTensor::from_doubles(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  std::ifstream in(path("a.npy"), std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // NumPy's np.save output: the dict, spaces, a newline, data aligned to 64 bytes.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_EQ(file.size(), 128u + 24u);
  EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(static_cast<unsigned char>(file[8]) + 256 * static_cast<unsigned char>(file[9]), 118);
  EXPECT_EQ(file.substr(10, dict.size()), dict);
  EXPECT_EQ(file.substr(10 + dict.size(), 118 - dict.size() - 1), std::string(118 - dict.size() - 1, ' '));
  EXPECT_EQ(file[127], '\n');
  float first;
  std::memcpy(&first, file.data() + 128, 4);
  EXPECT_EQ(first, 1.0f);
}

TEST(Npy, OneDimensionalShapeIsAPythonOneTuple) {
  const std::vector<std::byte> bytes = format_npy(npy_from_host_tensor(HostTensor::zeros(DType::Int64, {7})));
  const std::string file(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  EXPECT_NE(file.find("'shape': (7,)"), std::string::npos);
  EXPECT_NE(file.find("'descr': '<i8'"), std::string::npos);
  const std::vector<std::byte> scalar = format_npy(npy_from_host_tensor(HostTensor::zeros(DType::Bool, {})));
  EXPECT_NE(std::string(reinterpret_cast<const char*>(scalar.data()), scalar.size()).find("'shape': ()"),
            std::string::npos);
}

TEST(Npy, Bf16IsWrittenAsRawU2Bits) {
  HostTensor t = HostTensor::from_doubles(DType::BFloat16, {2}, {1.0, -2.0});
  NpyArray array = npy_from_host_tensor(t);
  EXPECT_EQ(array.descr, "<u2");
  const uint16_t expected[] = {0x3F80, 0xC000};
  ASSERT_EQ(array.data.size(), 4u);
  EXPECT_EQ(std::memcmp(array.data.data(), expected, 4), 0);
}

TEST(Npy, ReadsBf16FromU2OrV2OnlyWhenExpected) {
  const uint16_t bits[] = {0x3F80, 0x4040};  // 1, 3
  for (const char* descr : {"<u2", "<V2", "|V2"}) {
    const std::string file =
        npy_file(1, std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2,), }\n",
                 raw(bits, 4));
    EXPECT_EQ(parse(file, DType::BFloat16).to_doubles(), (std::vector<double>{1, 3})) << descr;
    EXPECT_NE(error_of([&] { parse(file); }).find("only when bf16 is expected"), std::string::npos);
    EXPECT_NE(error_of([&] { parse(file, DType::Float16); }).find("expected f16"), std::string::npos);
  }
}

TEST(Npy, ReadsVersions2And3AndOldStyleHeaders) {
  const int32_t values[] = {1, -2, 3};
  const std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n";
  for (int major : {1, 2, 3})
    EXPECT_EQ(parse(npy_file(major, header, raw(values, 12))).to_ints(), (std::vector<int64_t>{1, -2, 3}));
  // Python 2 era: long literals, double quotes, other key order, no trailing comma, no padding.
  const std::string old = "{\"shape\": (3L,), \"fortran_order\": False, \"descr\": \"<i4\"}";
  EXPECT_EQ(parse(npy_file(1, old, raw(values, 12)), DType::Int32).to_ints(),
            (std::vector<int64_t>{1, -2, 3}));
}

TEST(Npy, ReadsFortranOrderByReordering) {
  // The [2,3] matrix [[0,1,2],[3,4,5]] in column-major order: 0 3 1 4 2 5.
  const double column_major[] = {0, 3, 1, 4, 2, 5};
  HostTensor t = parse(
      npy_file(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }\n", raw(column_major, 48)));
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.to_doubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST(Npy, BoolBytesAreNormalized) {
  const std::string file = npy_file(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n",
                                    std::string("\x00\x01\x02", 3));
  HostTensor t = parse(file, DType::Bool);
  EXPECT_EQ(t.to_ints(), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(static_cast<int>(t.storage()[2]), 1);
}

// Each malformed file gives an error naming the file and the problem.
struct Malformed {
  const char* what;
  std::string file;
  const char* message_part;
};

TEST(Npy, MalformedFilesAreErrors) {
  const std::string four_floats(16, '\0');
  auto header = [](const std::string& dict) { return dict + "\n"; };
  const std::vector<Malformed> cases = {
      {"empty", "", "bad magic"},
      {"bad magic", "\x93NUMPZ\x01\x00", "bad magic"},
      {"no version", "\x93NUMPY", "no version"},
      {"bad version", npy_file(4, header("{}"), ""), "unsupported .npy version 4.0"},
      {"no header length", std::string("\x93NUMPY\x01\x00\x05", 9), "no header length"},
      {"truncated header", std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17), "truncated .npy header"},
      {"not a dict", npy_file(1, header("['descr']"), ""), "expected '{'"},
      {"unterminated dict",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,)"), four_floats),
       "expected ',' or '}'"},
      {"missing shape", npy_file(1, header("{'descr': '<f4', 'fortran_order': False}"), four_floats),
       "no 'shape'"},
      {"missing descr", npy_file(1, header("{'fortran_order': False, 'shape': (4,)}"), four_floats),
       "no 'descr'"},
      {"unknown key",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}"), four_floats),
       "unexpected key 'x'"},
      {"bad bool", npy_file(1, header("{'descr': '<f4', 'fortran_order': 0, 'shape': (4,)}"), four_floats),
       "True or False"},
      {"negative extent",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (-4,)}"), four_floats),
       "non-negative integer"},
      {"huge extent",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}"), ""),
       "too large"},
      {"overflowing shape",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}"), ""),
       "length mismatch"},
      {"trailing text",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} x"), four_floats),
       "unexpected text"},
      {"short data",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}"), four_floats),
       "needs 20 bytes, the file has 16"},
      {"long data",
       npy_file(1, header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}"), four_floats),
       "length mismatch"},
      {"big endian",
       npy_file(1, header("{'descr': '>f4', 'fortran_order': False, 'shape': (4,)}"), four_floats),
       "big-endian"},
      {"complex", npy_file(1, header("{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}"), four_floats),
       "unsupported .npy descr '<c8'"},
      {"garbage descr",
       npy_file(1, header("{'descr': 'float', 'fortran_order': False, 'shape': (4,)}"), four_floats),
       "unsupported .npy descr 'float'"},
      {"structured",
       npy_file(1, header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}"), four_floats),
       "structured"},
  };
  for (const Malformed& c : cases) {
    const std::string message = error_of([&] { parse(c.file); });
    EXPECT_NE(message.find(c.message_part), std::string::npos) << c.what << ": " << message;
    EXPECT_EQ(message.rfind("test.npy", 0), 0u) << c.what << ": " << message;
  }
}

TEST(Npy, ExpectedDtypeMismatch) {
  const float values[] = {1, 2};
  const std::string file =
      npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", raw(values, 8));
  EXPECT_EQ(error_of([&] { parse(file, DType::BFloat16); }),
            "test.npy: .npy file holds f32 ('<f4'), expected bf16");
}

TEST_F(NpyFiles, MissingFileAndTruncatedFileNameThePath) {
  EXPECT_NE(error_of([&] { read_npy(path("nope.npy")); }).find("nope.npy: cannot open"), std::string::npos);
  write_npy(path("t.npy"), HostTensor::zeros(DType::Float32, {4}));
  std::filesystem::resize_file(path("t.npy"), 140);
  const std::string message = error_of([&] { read_npy(path("t.npy"), DType::Float32); });
  EXPECT_NE(message.find("t.npy: .npy data length mismatch"), std::string::npos) << message;
}

TEST(Npy, LargeHeaderUsesVersion2) {
  NpyArray array;
  array.descr = "|b1";
  array.shape = std::vector<int64_t>(25000, 1);  // a header of 75000 characters
  array.data.assign(1, std::byte{1});
  const std::vector<std::byte> bytes = format_npy(array);
  EXPECT_EQ(static_cast<int>(bytes[6]), 2);
  EXPECT_EQ((bytes.size() - 1) % 64, 0u);
  NpyArray back = parse_npy(bytes, "big.npy");
  EXPECT_EQ(back.shape, array.shape);
  EXPECT_EQ(back.data, array.data);
}

}  // namespace
}  // namespace seam
