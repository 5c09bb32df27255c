// Matrix products on the GPU (cuBLASLt through seam's executables): the products of a Llama-2-7B layer
// at T tokens, attention's two batched products over a permuted view, and a decode-sized linear; per row
// GPU time by events and by CUPTI's kernel durations, TFLOP/s, the byte floor at the copy rate of the
// same run, library kernels per call, compile time, and the worst relative error of 64 sampled outputs
// against double sums on the host.
//
// Usage: bench_matmul_gpu [--tokens T] [--iterations N] [--no-cupti]
//        bench_matmul_gpu --host-smoke   (no GPU: tiny rows on the host backend against the interpreter)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "runtime/copy_timing.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/device_allocator.h"
#include "runtime/kernel_activity.h"
#include "support/error.h"
#include "tensor/fast_random.h"
#include "text/parser.h"

namespace seam::bench {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Row {
  std::string name;
  std::string text;  // fusion text, bf16
  double flops = 0;  // 2 M N K per call
  double bytes = 0;  // operands read once and the output written once
};

std::string dims(std::initializer_list<int64_t> extents) {
  std::string s = "[";
  for (int64_t e : extents) s += (s.size() > 1 ? "," : "") + std::to_string(e);
  return s + "]";
}

Row linear_row(const std::string& name, int64_t rows, int64_t in, int64_t out) {
  Row r{name + " [" + std::to_string(rows) + "," + std::to_string(in) + "] x [" + std::to_string(out) + "," +
            std::to_string(in) + "]^T",
        "fusion linear {\n  %0 = input {name=\"x\"} : bf16" + dims({rows, in}) +
            "\n  %1 = input {name=\"w\"} : bf16" + dims({out, in}) + "\n  %2 = linear %0, %1 : bf16" +
            dims({rows, out}) + "\n  return y=%2\n}\n",
        2.0 * rows * in * out, 2.0 * (rows * in + out * in + rows * out)};
  return r;
}

// Attention's products at `heads` heads of `hs`: scores = q @ k^T (k read transposed, a view), and
// context = p @ v.
std::vector<Row> attention_rows(int64_t heads, int64_t t, int64_t hs) {
  const std::string q = dims({heads, t, hs}), kt = dims({heads, hs, t}), p = dims({heads, t, t});
  Row scores{"scores q @ k^T " + q + " x " + kt,
             "fusion scores {\n  %0 = input {name=\"q\"} : bf16" + q + "\n  %1 = input {name=\"k\"} : bf16" +
                 q + "\n  %2 = permute %1 {perm=[0,2,1]} : bf16" + kt + "\n  %3 = matmul %0, %2 : bf16" + p +
                 "\n  return y=%3\n}\n",
             2.0 * heads * t * t * hs, 2.0 * (2 * heads * t * hs + heads * t * t)};
  Row context{"context p @ v " + p + " x " + q,
              "fusion context {\n  %0 = input {name=\"p\"} : bf16" + p +
                  "\n  %1 = input {name=\"v\"} : bf16" + q + "\n  %2 = matmul %0, %1 : bf16" + q +
                  "\n  return y=%2\n}\n",
              2.0 * heads * t * t * hs, 2.0 * (heads * t * t + 2 * heads * t * hs)};
  return {scores, context};
}

std::vector<Row> rows_for(int64_t t) {
  std::vector<Row> rows = {linear_row("qkv", t, 4096, 12288), linear_row("attn proj", t, 4096, 4096),
                           linear_row("mlp fc", t, 4096, 11008), linear_row("mlp proj", t, 11008, 4096)};
  for (Row& r : attention_rows(32, t, 128)) rows.push_back(r);
  rows.push_back(linear_row("decode qkv", 16, 4096, 12288));
  return rows;
}

// The worst relative error of `samples` outputs of a product, each summed in double from the inputs.
double sampled_error(const Fusion& fusion, const std::vector<HostTensor>& inputs, const HostTensor& out,
                     int samples) {
  const Node* product = nullptr;
  for (const Node& n : fusion.nodes())
    if (n.op == OpKind::Matmul || n.op == OpKind::Linear) product = &n;
  SEAM_ASSERT(product != nullptr);
  // Logical element (batch, row, k) of each operand, through its view (permute only).
  const HostTensor& a = inputs[0];
  const HostTensor& b = inputs[1];
  const bool linear = product->op == OpKind::Linear;
  const bool b_permuted = fusion.node(product->operands[1]).op == OpKind::Permute;
  const Shape& s = out.shape();
  const int64_t n = s.back(), m = s[s.size() - 2];
  const int64_t k = a.shape().back();
  std::mt19937 rng(1);
  double worst = 0;
  for (int i = 0; i < samples; ++i) {
    const int64_t e = static_cast<int64_t>(rng() % static_cast<uint64_t>(out.numel()));
    const int64_t col = e % n, row = e / n % m, bi = e / (m * n);
    double sum = 0, scale = 0;
    for (int64_t j = 0; j < k; ++j) {
      const double x = a.get_double((bi * m + row) * k + j);
      double y;
      if (linear)
        y = b.get_double(col * k + j);
      else if (b_permuted)  // k stored [batch, n, k]
        y = b.get_double((bi * n + col) * k + j);
      else
        y = b.get_double((bi * k + j) * n + col);
      sum += x * y;
      scale += std::abs(x * y);
    }
    // Relative to the sum of magnitudes: a cancelled sum is not held to the precision of its terms.
    worst = std::max(worst, std::abs(out.get_double(e) - sum) / std::max(scale, 1e-30));
  }
  return worst;
}

int run_host_smoke() {
  int failures = 0;
  std::vector<Row> rows = {linear_row("qkv", 8, 32, 48)};
  for (Row& r : attention_rows(2, 8, 16)) rows.push_back(r);
  for (const Row& row : rows) {
    Fusion fusion = parse_fusion(row.text);
    ExecutableOptions options;
    auto exe = Executable::compile(fusion, options);
    std::vector<HostTensor> inputs = fast_random_inputs(fusion, 3);
    HostTensor out = exe->run(inputs)[0];
    Comparison c = compare_tensors(out, interpret(fusion, inputs)[0], default_tolerance(DType::BFloat16));
    const double sampled = sampled_error(fusion, inputs, out, 64);
    std::printf("| %s | host | sampled relative error %.2e | %s |\n", row.name.c_str(), sampled,
                c.ok ? "matches the interpreter" : c.message.c_str());
    failures += !c.ok || sampled > 1e-2;
  }
  return failures ? 3 : 0;
}

int run(int argc, char** argv) {
  int64_t tokens = 4096;
  int iterations = 20;
  bool cupti = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      SEAM_CHECK(i + 1 < argc, "option ", arg, " needs a value");
      return argv[++i];
    };
    if (arg == "--host-smoke") return run_host_smoke();
    if (arg == "--tokens")
      tokens = std::stoll(value());
    else if (arg == "--iterations")
      iterations = std::stoi(value());
    else if (arg == "--no-cupti")
      cupti = false;
    else
      throw Error("unknown option '" + arg + "' (see the usage at the top of bench/bench_matmul_gpu.cpp)");
  }
  if (!driver_status().available) {
    std::printf("no GPU: %s\n", driver_status().reason.c_str());
    return 77;
  }
  Device& device = Device::shared();
  device.make_current();
  std::string why;
  if (cupti && !activity_available(&why)) {
    std::printf("kernel durations: none (%s)\n\n", why.c_str());
    cupti = false;
  }
  // The byte floor's rate: a 2 GiB device-to-device copy, as in bench_rope_gpu.
  const double rate = device_copy_rate_bytes_per_s();
  std::printf("device: %s (%s), copy rate %.2f TB/s, bf16, %lld tokens\n\n", device.properties().name.c_str(),
              device.arch_string().c_str(), rate / 1e12, static_cast<long long>(tokens));
  std::printf(
      "| product | compile ms | events us | kernel us | library kernels | TFLOP/s (kernel) | byte floor us | "
      "sampled rel. error |\n|---|---|---|---|---|---|---|---|\n");
  for (const Row& row : rows_for(tokens)) {
    const auto t0 = Clock::now();
    Fusion fusion = parse_fusion(row.text);
    ExecutableOptions options;
    options.backend = Backend::Cuda;
    auto exe = Executable::compile(fusion, options);
    const double compile_ms = ms_since(t0);
    std::vector<std::vector<HostTensor>> sets;
    for (uint64_t s = 0; s < 3; ++s) sets.push_back(fast_random_inputs(fusion, 40 + s));
    const double sampled = sampled_error(fusion, sets[0], exe->run(sets[0])[0], 64);
    const double events_us = exe->time_gpu(sets, iterations).median_ms * 1e3;
    double kernel_us = -1;
    int per_run = 0;
    if (cupti) {
      ActivityRecording recording;
      exe->time_gpu(sets, iterations);
      std::vector<ActivityRecord> records = recording.finish();
      int kernels = 0;
      for (const ActivityRecord& r : records) kernels += r.kind == ActivityRecord::Kind::Kernel;
      // time_gpu runs 3 warm-up calls, then `iterations` timed ones.
      per_run = kernels / (iterations + 3);
      if (per_run > 0) kernel_us = median_run_us(records, ActivityRecord::Kind::Kernel, per_run, iterations);
    }
    const double us = kernel_us > 0 ? kernel_us : events_us;
    char kernel_text[32] = "-", per_run_text[16] = "-";
    if (kernel_us > 0) std::snprintf(kernel_text, sizeof kernel_text, "%.1f", kernel_us);
    if (per_run > 0) std::snprintf(per_run_text, sizeof per_run_text, "%d", per_run);
    std::printf("| %s | %.0f | %.1f | %s | %s | %.0f | %.1f | %.1e |\n", row.name.c_str(), compile_ms,
                events_us, kernel_text, per_run_text, row.flops / (us * 1e-6) / 1e12, row.bytes / rate * 1e6,
                sampled);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace seam::bench

int main(int argc, char** argv) {
  try {
    return seam::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_matmul_gpu: error: %s\n", e.what());
    return 1;
  }
}
