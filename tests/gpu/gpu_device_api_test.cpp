// The CUDA executable's device entry point: inputs already on the GPU, outputs as device tensors (views
// as aliases of the input memory), checks before any launch, plans per alignment class.
#include <gtest/gtest.h>

#include <cstring>

#include "device_tensors.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "support/error.h"
#include "workloads/rope.h"

namespace seam {
namespace {

std::unique_ptr<Executable> compile_cuda(const Fusion& fusion) {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  return Executable::compile(fusion, options);
}

Fusion small_rope(RopeContract contract) {
  RopeOptions options;
  options.batch = 2;
  options.seq_len = 16;
  options.contract = contract;
  return build_rope(rope_config("W4"), options);  // GQA: k at ng heads in rope-only, v a view
}

void expect_outputs_match(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                          const std::vector<DeviceTensor>& outputs) {
  std::vector<HostTensor> expected = interpret(fusion, inputs);
  ASSERT_EQ(outputs.size(), expected.size());
  for (size_t o = 0; o < outputs.size(); ++o) {
    Comparison c = compare_tensors(to_host(outputs[o]), expected[o], default_tolerance(expected[o].dtype()));
    EXPECT_TRUE(c.ok) << "output " << o << ": " << c.message;
  }
}

TEST(GpuDeviceApi, OutputsAndViewsOnDeviceMemory) {
  SKIP_WITHOUT_GPU();
  Fusion fusion = small_rope(RopeContract::RopeOnly);
  auto exe = compile_cuda(fusion);
  std::vector<HostTensor> inputs = random_inputs(fusion, 5);
  std::vector<DeviceTensor> device_inputs;
  for (const HostTensor& x : inputs) device_inputs.push_back(to_device(x));
  std::vector<DeviceTensor> outputs = exe->run_device(device_inputs, nullptr);
  check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
  expect_outputs_match(fusion, inputs, outputs);
  // v is a strided alias into qkv: no copy, no launch.
  const DeviceTensor& v = outputs[2];
  EXPECT_GE(v.data, device_inputs[0].data);
  EXPECT_LT(v.data, device_inputs[0].data + inputs[0].storage().size());
  EXPECT_FALSE(v.is_contiguous());
  EXPECT_TRUE(outputs[0].is_contiguous());
}

TEST(GpuDeviceApi, MisalignedInputsGetANarrowerPlan) {
  SKIP_WITHOUT_GPU();
  Fusion fusion = small_rope(RopeContract::Thunder);
  auto exe = compile_cuda(fusion);
  std::vector<HostTensor> inputs = random_inputs(fusion, 6);
  for (size_t shift : {2, 4, 8}) {
    std::vector<DeviceTensor> device_inputs;
    for (const HostTensor& x : inputs) device_inputs.push_back(to_device(x, shift));
    std::vector<DeviceTensor> outputs = exe->run_device(device_inputs, nullptr);
    check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
    expect_outputs_match(fusion, inputs, outputs);
  }
}

TEST(GpuDeviceApi, BadInputsAreRejectedBeforeAnyLaunch) {
  SKIP_WITHOUT_GPU();
  Fusion fusion = small_rope(RopeContract::RopeOnly);
  auto exe = compile_cuda(fusion);
  std::vector<HostTensor> inputs = random_inputs(fusion, 7);
  std::vector<DeviceTensor> good;
  for (const HostTensor& x : inputs) good.push_back(to_device(x));
  auto expect_error = [&](std::vector<DeviceTensor> bad, const std::string& fragment) {
    try {
      exe->run_device(bad, nullptr);
      ADD_FAILURE() << "expected an error containing " << fragment;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  std::vector<DeviceTensor> bad = good;
  bad[1].dtype = DType::Float32;
  expect_error(bad, "input 1 ('cos'): expected bf16");
  bad = good;
  bad[0].shape[0] = 3;
  expect_error(bad, "input 0 ('qkv'): expected");
  bad = good;
  bad[2].strides = {1, 16};
  expect_error(bad, "expected strides");
  bad = good;
  bad[0].data += 1;  // not even element-aligned
  expect_error(bad, "not aligned to its element size");
  bad = good;
  std::vector<uint16_t> host_memory(1 << 20);
  bad[0].data = reinterpret_cast<DevicePtr>(host_memory.data());
  expect_error(bad, "is not memory of device");
  bad = good;
  bad[2].device = 7;  // a device the caller vouches for is compared, not queried
  expect_error(bad, "input 2 ('sin'): the tensor is on device 7, the executable runs on device 0");
  bad = good;
  bad.pop_back();
  expect_error(bad, "takes 3 inputs, got 2");
}

}  // namespace
}  // namespace seam
