// Times the text format on a 10,000-op fusion (chains of pointwise and movement ops): print, parse and
// verify, each the median of several runs. Usage: bench_parse [ops] [runs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "ir/verify.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam {
namespace {

// Appends pointwise and movement ops to a running value until the fusion has `ops` nodes.
Fusion build_chain_fusion(int ops) {
  Builder b("bench_chain");
  Value x = b.input(Type::tensor(DType::BFloat16, {64, 128}), "x");
  Value y = b.input(Type::tensor(DType::Float32, {64, 128}), "y", {1, 64});
  Value scale = b.constant(Number::of_float(0.125), DType::Float32);
  Value v = b.cast(x, DType::Float32);
  for (int step = 0; b.num_nodes() < ops; ++step) {
    switch (step % 8) {
      case 0: v = b.mul(v, scale); break;
      case 1: v = b.add(v, y); break;
      case 2: v = b.exp(b.neg(v)); break;
      case 3: v = b.reshape(b.permute(v, {1, 0}), {64, 128}); break;
      case 4: v = b.pad(b.slice_axis(v, 1, 1, 128), {0, 1}, {0, 0}, Number::of_float(0.0)); break;
      case 5: v = b.cast(b.cast(v, DType::BFloat16), DType::Float32); break;
      case 6: v = b.squeeze(b.broadcast(v, {0}), {0}); break;
      default: v = b.where(b.add(OpKind::Gt, {v, scale}), v, y); break;
    }
  }
  return b.finish({{v, "out"}});
}

template <typename F>
double median_ms(int runs, F&& body) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    body();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace
}  // namespace seam

int main(int argc, char** argv) {
  using namespace seam;
  const int ops = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 9;
  Fusion fusion = build_chain_fusion(ops);
  std::string text;
  double print_ms = median_ms(runs, [&] { text = print_fusion(fusion); });
  size_t nodes = 0;
  double parse_ms = median_ms(runs, [&] { nodes = parse_fusion(text, "bench").nodes().size(); });
  Fusion parsed = parse_fusion(text, "bench");
  double verify_ms = median_ms(runs, [&] { verify(parsed); });
  if (print_fusion(parsed) != text) {
    std::fprintf(stderr, "bench_parse: round trip failed\n");
    return 1;
  }
  std::printf("%8s %12s %10s %10s %10s\n", "ops", "text bytes", "parse ms", "verify ms", "print ms");
  std::printf("%8zu %12zu %10.2f %10.2f %10.2f\n", nodes, text.size(), parse_ms, verify_ms, print_ms);
  return 0;
}
