// Executable::run_profiled on the CUDA backend: the profile's steps are the launches (a cuBLASLt call and
// generated kernels), timed by CUPTI's kernel records when CUPTI loads (else by events, saying why), and
// the profiled run computes what run_into computes.
#include <gtest/gtest.h>

#include <iostream>

#include "device_tensors.h"
#include "runtime/cuda_driver.h"
#include "seam/api.h"

namespace seam {
namespace {

api::TensorRef ref(const DeviceTensor& t) {
  return {static_cast<uint64_t>(t.data), api::parse_dtype(dtype_name(t.dtype)), t.shape, t.strides};
}

TEST(GpuProfile, StepsOfAProductAndItsEpilogueTimedOnTheGpu) {
  SKIP_WITHOUT_GPU();
  api::FusionBuilder b("profiled_on_gpu");
  api::Value a = b.input(api::DType::Float32, {512, 256}, {}, "a");
  api::Value w = b.input(api::DType::Float32, {256, 128}, {}, "w");
  api::Value c = b.input(api::DType::Float32, {512, 128}, {}, "c");
  api::Value y = b.op("tanh", {b.op("add", {b.op("matmul", {a, w}), c})});
  api::Value total = b.op("sum", {y}, {{"axes", std::vector<int64_t>{1}}, {"keepdim", false}});
  api::Executable exe =
      api::Executable::compile(b.finish({{"y", y}, {"total", total}}), {.backend = api::Backend::Cuda});

  auto random = [](std::vector<int64_t> shape, uint32_t seed) {
    HostTensor x = HostTensor::zeros(DType::Float32, shape);
    for (int64_t i = 0; i < x.numel(); ++i) {
      seed = seed * 1664525u + 1013904223u;
      x.set(i, Scalar::of_real(static_cast<double>(seed >> 8) / double(1 << 24) - 0.5));
    }
    return x;
  };
  const std::vector<DeviceTensor> in = {to_device(random({512, 256}, 1)), to_device(random({256, 128}, 2)),
                                        to_device(random({512, 128}, 3))};
  const DeviceTensor y1 = to_device(HostTensor::zeros(DType::Float32, {512, 128}));
  const DeviceTensor t1 = to_device(HostTensor::zeros(DType::Float32, {512}));
  const DeviceTensor y2 = to_device(HostTensor::zeros(DType::Float32, {512, 128}));
  const DeviceTensor t2 = to_device(HostTensor::zeros(DType::Float32, {512}));
  const std::vector<api::TensorRef> inputs = {ref(in[0]), ref(in[1]), ref(in[2])};

  exe.run_into(inputs, {ref(y1), ref(t1)});
  exe.run_profiled(inputs, {ref(y2), ref(t2)});  // the first run pays for CUPTI's start-up
  const api::RunProfile p = exe.run_profiled(inputs, {ref(y2), ref(t2)});
  check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
  EXPECT_EQ(to_host(y1).storage(), to_host(y2).storage());
  EXPECT_EQ(to_host(t1).storage(), to_host(t2).storage());

  ASSERT_TRUE(p.timing == "cupti" || p.timing == "events") << p.timing;
  EXPECT_EQ(p.timing == "cupti", p.timing_note.empty()) << p.timing_note;
  std::cout << "timing " << p.timing << (p.timing_note.empty() ? "" : " (" + p.timing_note + ")") << "\n";
  EXPECT_EQ(p.segments, exe.num_kernels());
  ASSERT_GE(p.steps.size(), 2u);
  EXPECT_GT(p.event_time_ms, 0.0);
  EXPECT_GT(p.host_time_ms, 0.0);
  EXPECT_GT(p.peak_bandwidth_gbs, 100.0);
  double sum = 0;
  int libraries = 0;
  for (const api::StepProfile& s : p.steps) {
    std::cout << "  " << s.name << " [" << s.scheduler << "] " << s.time_ms << " ms, events "
              << s.event_time_ms << " ms, kernels " << s.gpu_kernels << "\n";
    EXPECT_TRUE(s.launched);
    EXPECT_GT(s.time_ms, 0.0);
    EXPECT_GT(s.event_time_ms, 0.0);
    sum += s.time_ms;
    if (s.scheduler == "library") {
      ++libraries;
      EXPECT_EQ(s.name, "matmul by cuBLASLt");
      if (p.timing == "cupti") {
        EXPECT_GE(s.gpu_kernels, 1);
      }
    } else {
      EXPECT_GT(s.blocks, 0);
      if (p.timing == "cupti") {
        EXPECT_EQ(s.gpu_kernels, 1);
        // The GPU's own duration leaves out the launch start-up that the events bracket.
        EXPECT_LE(s.time_ms, s.event_time_ms + 1e-3);
      }
    }
  }
  EXPECT_EQ(libraries, 1);
  EXPECT_DOUBLE_EQ(p.kernel_time_ms, sum);
}

}  // namespace
}  // namespace seam
