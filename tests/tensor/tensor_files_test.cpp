#include "tensor/tensor_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "support/error.h"
#include "tensor/tensor_npy.h"
#include "text/parser.h"

namespace seam {
namespace {

constexpr const char* kFusion = R"(fusion f {
  %x = input {name="x", strides=[1,2]} : f32[2,3]
  %y = input : bf16[3]
  %b = broadcast %y {axes=[0]} : bf16[1,3]
  %e = expand %b {shape=[2,3]} : bf16[2,3]
  %c = cast %e {dtype=f32} : f32[2,3]
  %s = add %x, %c : f32[2,3]
  return total=%s, %c
}
)";

std::string scratch_dir(const std::string& name) {
  auto dir = std::filesystem::path(::testing::TempDir()) / ("seam_tensor_files_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(TensorFiles, NamesFallBackToPositions) {
  Fusion f = parse_fusion(kFusion);
  EXPECT_EQ(fusion_input_name(f, 0), "x");
  EXPECT_EQ(fusion_input_name(f, 1), "input1");
  EXPECT_EQ(fusion_output_name(f, 0), "total");
  EXPECT_EQ(fusion_output_name(f, 1), "output1");
}

TEST(TensorFiles, InputsAreReadByNameAndLaidOutWithTheDeclaredStrides) {
  Fusion f = parse_fusion(kFusion);
  const std::string dir = scratch_dir("inputs");
  write_npy(dir + "/x.npy", HostTensor::from_doubles(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  write_npy(dir + "/input1.npy", HostTensor::from_doubles(DType::BFloat16, {3}, {0.5, 1.5, 2.5}));
  std::vector<HostTensor> inputs = read_inputs_from_dir(f, dir);
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].strides(), (Shape{1, 2}));
  EXPECT_EQ(inputs[0].to_doubles(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(inputs[1].to_doubles(), (std::vector<double>{0.5, 1.5, 2.5}));
}

TEST(TensorFiles, AMissingOrMismatchingInputNamesTheFile) {
  Fusion f = parse_fusion(kFusion);
  const std::string dir = scratch_dir("bad");
  write_npy(dir + "/x.npy", HostTensor::zeros(DType::Float32, {3, 2}));
  try {
    read_inputs_from_dir(f, dir);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("x.npy holds f32[3,2]"), std::string::npos) << e.what();
  }
  write_npy(dir + "/x.npy", HostTensor::zeros(DType::Float32, {2, 3}));
  try {
    read_inputs_from_dir(f, dir);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input1.npy"), std::string::npos) << e.what();
  }
}

TEST(TensorFiles, OutputsAreWrittenByNameAndNoTemporaryStays) {
  Fusion f = parse_fusion(kFusion);
  const std::string dir = scratch_dir("outputs");
  write_outputs_to_dir(
      f, {HostTensor::zeros(DType::Float32, {2, 3}), HostTensor::zeros(DType::Float32, {2, 3})}, dir);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"output1.npy", "total.npy"}));
  EXPECT_EQ(read_npy(dir + "/total.npy", DType::Float32).shape(), (Shape{2, 3}));
}

TEST(TensorFiles, AnOutputDirThatIsAFileIsAnError) {
  const std::string dir = scratch_dir("file");
  write_npy(dir + "/t.npy", HostTensor::zeros(DType::Float32, {1}));
  EXPECT_THROW(prepare_output_dir(dir + "/t.npy", "--out"), Error);
  prepare_output_dir(dir + "/new/deeper", "--out");
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/new/deeper"));
}

}  // namespace
}  // namespace seam
