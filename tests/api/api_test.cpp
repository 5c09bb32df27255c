// The public API (include/seam/api.h): building, parsing, compiling for the host backend, running on the
// caller's buffers, and errors as the API's exception types.
#include "seam/api.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

namespace seam::api {
namespace {

uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

TEST(Api, BuildCompileAndRunOnHostBuffers) {
  FusionBuilder b("scaled_exp");
  Value x = b.input(DType::Float32, {2, 3}, {1, 2}, "x");  // a transposed view: column-major strides
  Value s = b.scalar_input(DType::Float64, "s");
  Value y = b.op("mul", {b.op("exp", {x}), s});
  Value total = b.op("sum", {y}, {{"axes", std::vector<int64_t>{1}}, {"keepdim", false}});
  EXPECT_EQ(b.type(total).to_string(), "f32[2]");
  Fusion fusion = b.finish({{"y", y}, {"total", total}});
  EXPECT_EQ(fusion.input_types().size(), 2u);
  EXPECT_TRUE(fusion.input_types()[1].is_scalar);

  Executable exe = Executable::compile(fusion, {.backend = Backend::Host});
  EXPECT_EQ(exe.num_kernels(), 1);
  EXPECT_NE(exe.segmentation().find("kernels: 1"), std::string::npos);
  EXPECT_NE(exe.cuda_source().find("SEAM_KERNEL"), std::string::npos);

  const std::vector<float> storage = {0.0f, 0.5f, 1.0f, -1.0f, 2.0f, 0.25f};  // x[i][j] = storage[i + 2j]
  const double scale = 2.0;
  std::vector<float> out_y(6), out_total(2);
  exe.run_host(
      {{address(storage.data()), DType::Float32, {2, 3}, {1, 2}}, {address(&scale), DType::Float64, {}, {}}},
      {{address(out_y.data()), DType::Float32, {2, 3}, {3, 1}},
       {address(out_total.data()), DType::Float32, {2}, {1}}});
  for (int i = 0; i < 2; ++i) {
    float sum = 0;
    for (int j = 0; j < 3; ++j) {
      const float expected = std::exp(storage[i + 2 * j]) * 2.0f;
      EXPECT_NEAR(out_y[i * 3 + j], expected, 1e-5f);
      sum += expected;
    }
    EXPECT_NEAR(out_total[i], sum, 1e-4f);
  }
}

TEST(Api, RunReferenceEvaluatesTheFusionAsBuiltWithTheInterpreter) {
  FusionBuilder b("reference");
  Value x = b.input(DType::Float32, {2, 3}, {1, 2}, "x");  // column-major strides, as above
  Value s = b.scalar_input(DType::Float64, "s");
  Value y = b.op("mul", {b.op("exp", {x}), s});
  Value total = b.op("sum", {y}, {{"axes", std::vector<int64_t>{1}}, {"keepdim", false}});
  Executable exe = Executable::compile(b.finish({{"y", y}, {"total", total}}), {.backend = Backend::Host});

  const std::vector<float> storage = {0.0f, 0.5f, 1.0f, -1.0f, 2.0f, 0.25f};
  const double scale = 2.0;
  const std::vector<TensorRef> inputs = {{address(storage.data()), DType::Float32, {2, 3}, {1, 2}},
                                         {address(&scale), DType::Float64, {}, {}}};
  std::vector<float> host_y(6), host_total(2), ref_y(6), ref_total(2);
  exe.run_host(inputs, {{address(host_y.data()), DType::Float32, {2, 3}, {3, 1}},
                        {address(host_total.data()), DType::Float32, {2}, {1}}});
  exe.run_reference(inputs, {{address(ref_y.data()), DType::Float32, {2, 3}, {3, 1}},
                             {address(ref_total.data()), DType::Float32, {2}, {1}}});
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(ref_y[i], host_y[i], 1e-5f) << i;
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(ref_total[i], host_total[i], 1e-4f) << i;
  EXPECT_NEAR(ref_y[1], std::exp(1.0f) * 2.0f, 1e-5f);  // y[0][1] = exp(storage[2]) * 2
  // The same checks of the caller's buffers as run_host.
  EXPECT_THROW(exe.run_reference(inputs, {{address(ref_y.data()), DType::Float32, {3, 2}, {2, 1}},
                                          {address(ref_total.data()), DType::Float32, {2}, {1}}}),
               Error);
}

TEST(Api, ParseAndPrintRoundTrip) {
  const char* text = "fusion f {\n  %0 = input : bf16[4]\n  %1 = neg %0 : bf16[4]\n  return %1\n}\n";
  Fusion f = Fusion::parse(text);
  EXPECT_EQ(f.text(), text);
  EXPECT_EQ(f.name(), "f");
}

TEST(Api, UserMistakesAreApiErrorsWithSeamsMessages) {
  FusionBuilder b;
  Value x = b.input(DType::Float32, {2, 3});
  Value y = b.input(DType::Float32, {3, 2});
  EXPECT_THROW(b.op("frobnicate", {x}), Error);
  try {
    b.op("add", {x, y});
    FAIL() << "add of [2,3] and [3,2] was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("add"), std::string::npos) << e.what();
  }
  EXPECT_THROW(b.op("neg", {Value{42}}), Error);
  EXPECT_THROW(Fusion::parse("fusion f { return }"), Error);
  EXPECT_THROW(parse_dtype("f8"), Error);

  Fusion f = b.finish({{"", b.op("neg", {x})}});
  EXPECT_THROW(b.input(DType::Float32, {1}), Error);  // the builder is spent
  Executable exe = Executable::compile(f, {});
  std::vector<float> in(6), out(6);
  // Wrong shape, wrong strides, wrong count: rejected before any byte is read.
  EXPECT_THROW(exe.run_host({{address(in.data()), DType::Float32, {3, 2}, {2, 1}},
                             {address(in.data()), DType::Float32, {3, 2}, {2, 1}}},
                            {{address(out.data()), DType::Float32, {2, 3}, {3, 1}}}),
               Error);
  EXPECT_THROW(exe.run_host({{address(in.data()), DType::Float32, {2, 3}, {3, 1}}},
                            {{address(out.data()), DType::Float32, {2, 3}, {3, 1}}}),
               Error);                               // the fusion takes two inputs
  EXPECT_THROW(exe.run_device({}, nullptr), Error);  // a host executable
}

TEST(Api, LeavesNeedTheirDeclaredType) {
  FusionBuilder b;
  Value f = b.op("full", {}, {{"value", Literal::of_float(1.5)}}, ValueType{DType::Float32, false, {2, 2}});
  Value i = b.op("iota", {}, {{"start", Literal::of_int(3)}, {"step", Literal::of_int(2)}},
                 ValueType{DType::Int64, false, {4}});
  EXPECT_EQ(b.type(f).to_string(), "f32[2,2]");
  Fusion fusion = b.finish({{"f", f}, {"i", i}});
  Executable exe = Executable::compile(fusion, {});
  std::vector<float> out_f(4);
  std::vector<int64_t> out_i(4);
  exe.run_host({}, {{address(out_f.data()), DType::Float32, {2, 2}, {2, 1}},
                    {address(out_i.data()), DType::Int64, {4}, {1}}});
  EXPECT_EQ(out_f, std::vector<float>(4, 1.5f));
  EXPECT_EQ(out_i, (std::vector<int64_t>{3, 5, 7, 9}));
}

TEST(Api, RunIntoWritesCallerBuffersAndRoutesViews) {
  FusionBuilder b("routes");
  Value x = b.input(DType::Float32, {2, 3}, {}, "x");
  Value s = b.scalar_input(DType::Float32, "s");
  Value y = b.op("mul", {x, s});
  Value t = b.op("permute", {x}, {{"perm", std::vector<int64_t>{1, 0}}});
  Fusion fusion = b.finish({{"y", y}, {"t", t}, {"x_again", x}, {"y_again", y}});
  Executable exe = Executable::compile(fusion, {.backend = Backend::Host});
  const std::vector<OutputRoute>& routes = exe.output_routes();
  ASSERT_EQ(routes.size(), 4u);
  EXPECT_EQ(routes[0].kind, OutputRoute::Kind::Computed);
  EXPECT_EQ(routes[0].layout.strides, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(routes[1].kind, OutputRoute::Kind::View);  // a transposed alias of x, nothing written
  EXPECT_EQ(routes[1].input, 0);
  EXPECT_EQ(routes[1].layout.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(routes[1].layout.strides, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(routes[2].kind, OutputRoute::Kind::View);
  EXPECT_EQ(routes[3].kind, OutputRoute::Kind::Same);
  EXPECT_EQ(routes[3].output, 0);
  EXPECT_EQ(exe.input_layouts()[0].strides, (std::vector<int64_t>{3, 1}));

  const std::vector<float> in = {1, 2, 3, 4, 5, 6};
  float scale = 0;
  encode_scalar(Literal::of_int(3), DType::Float32, &scale);
  EXPECT_EQ(scale, 3.0f);
  std::vector<float> out(6, -1.0f);
  const TensorRef x_ref{address(in.data()), DType::Float32, {2, 3}, {3, 1}};
  const TensorRef s_ref{address(&scale), DType::Float32, {}, {}};
  const TensorRef out_ref{address(out.data()), DType::Float32, {2, 3}, {3, 1}};
  exe.run_into({x_ref, s_ref}, {out_ref, {}, {}, {}});
  EXPECT_EQ(out, (std::vector<float>{3, 6, 9, 12, 15, 18}));

  // Buffers are checked before anything runs: shape, contiguity, overlap with an input.
  TensorRef wrong = out_ref;
  wrong.shape = {3, 2};
  EXPECT_THROW(exe.run_into({x_ref, s_ref}, {wrong, {}, {}, {}}), Error);
  wrong = out_ref;
  wrong.strides = {1, 2};
  EXPECT_THROW(exe.run_into({x_ref, s_ref}, {wrong, {}, {}, {}}), Error);
  try {
    exe.run_into({x_ref, s_ref}, {{address(in.data() + 1), DType::Float32, {2, 3}, {3, 1}}, {}, {}, {}});
    ADD_FAILURE() << "an output overlapping an input was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("overlaps input 0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(exe.run_into({x_ref, s_ref}, {out_ref}), Error);  // one buffer per output
  EXPECT_EQ(out, (std::vector<float>{3, 6, 9, 12, 15, 18}));     // untouched by the refused runs
}

}  // namespace
// Runs of one executable are not serialized: threads running it at once each get their own results, bit
// for bit what a run alone gives (host backend; the GPU's version, on two streams, is GpuStreams.*).
TEST(Api, OneExecutableRunsOnSeveralThreadsAtOnce) {
  FusionBuilder b("softmax_and_scale");
  Value x = b.input(DType::Float32, {16, 257}, {}, "x");
  const Attributes row = {{"axes", std::vector<int64_t>{1}}, {"keepdim", true}};
  const Attributes across = {{"shape", std::vector<int64_t>{16, 257}}};
  Value e = b.op("exp", {b.op("sub", {x, b.op("expand", {b.op("max", {x}, row)}, across)})});
  Value y = b.op("div", {e, b.op("expand", {b.op("sum", {e}, row)}, across)});
  Value z = b.op("mul", {x, x});
  Fusion fusion = b.finish({{"y", y}, {"z", z}});
  Executable exe = Executable::compile(fusion, {.backend = Backend::Host});

  constexpr int kThreads = 4, kRuns = 12;
  constexpr size_t kElements = 16 * 257;
  auto input_of = [](int thread) {
    std::vector<float> x(kElements);
    for (size_t i = 0; i < kElements; ++i) x[i] = std::sin(0.37f * static_cast<float>(i) + 1.3f * thread) * 4;
    return x;
  };
  auto run = [&](const std::vector<float>& x, bool into) {
    std::vector<float> y(kElements), z(kElements);
    const std::vector<TensorRef> in = {{address(x.data()), DType::Float32, {16, 257}, {257, 1}}};
    const std::vector<TensorRef> out = {{address(y.data()), DType::Float32, {16, 257}, {257, 1}},
                                        {address(z.data()), DType::Float32, {16, 257}, {257, 1}}};
    if (into)
      exe.run_into(in, out, nullptr);
    else
      exe.run_host(in, out);
    y.insert(y.end(), z.begin(), z.end());
    return y;
  };
  std::vector<std::vector<float>> alone;
  for (int t = 0; t < kThreads; ++t) alone.push_back(run(input_of(t), false));
  for (int t = 1; t < kThreads; ++t) ASSERT_NE(alone[t], alone[0]);  // each thread's results are its own

  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const std::vector<float> x = input_of(t);
      for (int r = 0; r < kRuns; ++r)
        if (run(x, r % 2 == 1) != alone[t]) ++mismatches[t];
    });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// Compilations are not serialized either: several threads compile different fusions at once (what the
// torch.compile backend does with a graph's regions) and each executable computes what one compiled alone
// computes.
TEST(Api, SeveralThreadsCompileAtOnce) {
  constexpr int kThreads = 4;
  auto fusion_of = [](int t) {
    const int64_t n = 33 + 16 * t;  // a different kernel per thread
    FusionBuilder b("scaled_rows_" + std::to_string(t));
    Value x = b.input(DType::Float32, {8, n}, {}, "x");
    const Attributes row = {{"axes", std::vector<int64_t>{1}}, {"keepdim", true}};
    const Attributes across = {{"shape", std::vector<int64_t>{8, n}}};
    Value y = b.op("div", {x, b.op("expand", {b.op("sum", {b.op("mul", {x, x})}, row)}, across)});
    return std::make_pair(b.finish({{"y", y}}), n);
  };
  auto run = [](Executable& exe, int64_t n) {
    std::vector<float> x(static_cast<size_t>(8 * n)), y(x.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.11f * static_cast<float>(i)) + 1.5f;
    exe.run_host({{address(x.data()), DType::Float32, {8, n}, {n, 1}}},
                 {{address(y.data()), DType::Float32, {8, n}, {n, 1}}});
    return y;
  };
  std::vector<std::vector<float>> alone;
  for (int t = 0; t < kThreads; ++t) {
    auto [fusion, n] = fusion_of(t);
    Executable exe = Executable::compile(fusion, {.backend = Backend::Host});
    alone.push_back(run(exe, n));
  }
  std::vector<std::vector<float>> together(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        auto [fusion, n] = fusion_of(t);
        Executable exe = Executable::compile(fusion, {.backend = Backend::Host});
        together[t] = run(exe, n);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], "") << "thread " << t;
    EXPECT_EQ(together[t], alone[t]) << "thread " << t;
  }
}

}  // namespace seam::api
