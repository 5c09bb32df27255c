#include "tensor/tensor_files.h"

#include <filesystem>
#include <utility>

#include "support/error.h"
#include "tensor/tensor_npy.h"

namespace seam {

std::string fusion_input_name(const Fusion& fusion, size_t i) {
  const Node& node = fusion.node(fusion.inputs()[i]);
  if (const AttrValue* name = node.attrs.find("name")) return std::get<std::string>(*name);
  return "input" + std::to_string(i);
}

std::string fusion_output_name(const Fusion& fusion, size_t i) {
  const std::string& name = fusion.outputs()[i].name;
  return name.empty() ? "output" + std::to_string(i) : name;
}

std::vector<HostTensor> read_inputs_from_dir(const Fusion& fusion, const std::string& dir) {
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < fusion.inputs().size(); ++i) {
    const Value input = fusion.inputs()[i];
    const Type& type = fusion.type(input);
    const std::string path = dir + "/" + fusion_input_name(fusion, i) + ".npy";
    HostTensor tensor = read_npy(path, type.dtype);
    SEAM_CHECK(tensor.dtype() == type.dtype && tensor.shape() == type.shape, path, " holds ",
               tensor.type_string(), ", input ", i, " of fusion ", fusion.name(), " is ", type.to_string());
    const Shape strides = fusion.input_strides(input);
    inputs.push_back(tensor.strides() == strides ? std::move(tensor) : tensor.restrided(strides));
  }
  return inputs;
}

void prepare_output_dir(const std::string& dir, const std::string& option) {
  std::error_code error;
  if (std::filesystem::exists(dir, error)) {
    SEAM_CHECK(std::filesystem::is_directory(dir, error), option, " ", dir, " is not a directory");
    return;
  }
  std::filesystem::create_directories(dir, error);
  SEAM_CHECK(!error, option, " ", dir, ": cannot create the directory: ", error.message());
}

void write_outputs_to_dir(const Fusion& fusion, const std::vector<HostTensor>& outputs,
                          const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> written;  // temporary, final
  try {
    for (size_t i = 0; i < outputs.size(); ++i) {
      const std::string name = fusion_output_name(fusion, i);
      written.emplace_back(dir + "/." + name + ".npy.partial", dir + "/" + name + ".npy");
      write_npy(written.back().first, outputs[i]);
    }
  } catch (...) {
    std::error_code ignored;
    for (const auto& [temporary, final_path] : written) std::filesystem::remove(temporary, ignored);
    throw;
  }
  for (const auto& [temporary, final_path] : written) {
    std::error_code error;
    std::filesystem::rename(temporary, final_path, error);
    SEAM_CHECK(!error, "cannot move ", temporary, " to ", final_path, ": ", error.message());
  }
}

}  // namespace seam
