// One executable run from two threads on two streams at once (Python threads on different torch streams):
// each thread runs it many times back to back with its own inputs, alternating run_device and run_into,
// and keeps every run's outputs; after its stream synchronizes, every output must have the bits of a run
// of the same inputs on one stream. Intermediates freed by a run on one stream must not be handed to the
// other while still in use, and the workspaces (outer reductions' counters, cuBLASLt's) must not be
// shared: either would mix the two threads' data or leave counters wrong. Skips without a GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>

#include "device_tensors.h"
#include "exec/executable.h"
#include "runtime/device.h"
#include "runtime/event_timer.h"
#include "tensor/fast_random.h"
#include "testing/norm_backward.h"
#include "workloads/transformer.h"

namespace seam {
namespace {

// SEAM_GPU_QUICK (the suite under compute-sanitizer): a few runs per thread.
int run_count(int full) { return std::getenv("SEAM_GPU_QUICK") != nullptr ? 4 : full; }

struct Run {
  std::vector<DeviceTensor> outputs;
  bool into = false;  // run_into: only Computed outputs were written
};

void expect_same_bits_on_two_streams(const Fusion& fusion, const ExecutableOptions& options, int runs) {
  auto exe = Executable::compile(fusion, options);
  constexpr int kThreads = 2;
  std::vector<std::vector<DeviceTensor>> inputs(kThreads);
  std::vector<std::vector<HostTensor>> reference(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (const HostTensor& x : fast_random_inputs(fusion, 100 + static_cast<uint64_t>(t)))
      inputs[t].push_back(to_device(x));
    const std::vector<DeviceTensor> outputs = exe->run_device(inputs[t], nullptr);
    check_cuda(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
    for (const DeviceTensor& out : outputs) reference[t].push_back(to_host(out));
  }
  const Fusion& f = fusion;
  std::atomic<int> ready{0};
  std::vector<std::exception_ptr> errors(kThreads);
  std::vector<std::vector<Run>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        // A new thread has no current context (PyTorch makes one current in its threads).
        Device::shared().make_current();
        Stream stream;
        ready.fetch_add(1);
        while (ready.load() < kThreads) std::this_thread::yield();  // start together
        for (int r = 0; r < runs; ++r) {
          Run run;
          run.into = r % 2 == 1;
          if (!run.into) {
            run.outputs = exe->run_device(inputs[t], stream.get());
          } else {
            run.outputs.resize(f.outputs().size());
            for (size_t o = 0; o < run.outputs.size(); ++o) {
              if (exe->output_routes()[o].kind != OutputRoute::Kind::Computed) continue;
              const Type& type = f.type(f.outputs()[o].value);
              run.outputs[o] = to_device(HostTensor::zeros(type.dtype, type.shape));
            }
            exe->run_into(inputs[t], run.outputs, stream.get());
          }
          results[t].push_back(std::move(run));
        }
        stream.synchronize();
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    if (errors[t]) {
      try {
        std::rethrow_exception(errors[t]);
      } catch (const std::exception& e) {
        FAIL() << fusion.name() << " thread " << t << ": " << e.what();
      }
    }
    ASSERT_EQ(results[t].size(), static_cast<size_t>(runs));
    for (int r = 0; r < runs; ++r) {
      const Run& run = results[t][static_cast<size_t>(r)];
      for (size_t o = 0; o < run.outputs.size(); ++o) {
        if (run.into && exe->output_routes()[o].kind != OutputRoute::Kind::Computed) continue;
        const HostTensor actual = to_host(run.outputs[o]);
        const HostTensor& expected = reference[t][o];
        ASSERT_EQ(actual.storage().size(), expected.storage().size());
        EXPECT_EQ(std::memcmp(actual.storage().data(), expected.storage().data(), actual.storage().size()), 0)
            << fusion.name() << " thread " << t << " run " << r
            << (run.into ? " (run_into)" : " (run_device)") << " output " << o
            << " differs from the run on one stream";
      }
    }
  }
}

ExecutableOptions cuda_options() {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  return options;
}

// Outer reductions: one kernel with a workspace of arrival counters, left zero by each launch.
TEST(GpuStreams, OuterReductionWorkspacePerStream) {
  SKIP_WITHOUT_GPU();
  ExecutableOptions options = cuda_options();
  options.segment.rules.limits.max_inlined_reduction = 0;
  for (bool persistent : {true, false}) {
    options.launch.row_persistent = persistent;
    expect_same_bits_on_two_streams(rmsnorm_backward(2051, 5000, DType::BFloat16), options, run_count(12));
    expect_same_bits_on_two_streams(layernorm_backward(1000, 4096, DType::Float32), options, run_count(12));
  }
}

// Matrix products (cuBLASLt's workspace) and many kernels with intermediates freed after every run.
TEST(GpuStreams, TransformerIntermediatesAndLibraryWorkspacePerStream) {
  SKIP_WITHOUT_GPU();
  TransformerConfig config;
  config.layers = 2;
  config.seq_len = 256;
  expect_same_bits_on_two_streams(build_transformer_stack(config), cuda_options(), run_count(30));
}

}  // namespace
}  // namespace seam
