// The seam tool end to end: exit codes and messages of every command, run as a separate process.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tensor/tensor_npy.h"
#include "tool_runner.h"

namespace seam {
namespace {

TEST_F(Tool, HelpAndUsage) {
  EXPECT_EQ(seam("help").code, 0);
  EXPECT_NE(seam("help").output.find("usage: seam"), std::string::npos);
  EXPECT_EQ(seam("").code, 2);
  Result unknown = seam("frobnicate");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.output.find("unknown command 'frobnicate'"), std::string::npos);
}

TEST_F(Tool, PrintAndVerify) {
  std::string file = write("small.seam", kSmall);
  Result printed = seam("print " + file);
  EXPECT_EQ(printed.code, 0) << printed.output;
  EXPECT_NE(printed.output.find("%2 = add %0, %1 : f32[2,3]"), std::string::npos) << printed.output;
  Result verified = seam("verify " + file);
  EXPECT_EQ(verified.code, 0);
  EXPECT_NE(verified.output.find("ok: fusion small"), std::string::npos) << verified.output;
}

TEST_F(Tool, MalformedInputIsAnErrorWithItsLocation) {
  std::string file =
      write("bad.seam", "fusion bad {\n  %x = input : f32[2]\n  %y = frob %x : f32[2]\n  return %y\n}\n");
  Result r = seam("verify " + file);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find(file + ":3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("frob"), std::string::npos) << r.output;
  Result missing = seam("verify " + path("nope.seam"));
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.output.find("nope.seam"), std::string::npos);
}

TEST_F(Tool, UnknownOptionsAreErrors) {
  std::string file = write("small.seam", kSmall);
  Result r = seam("run " + file + " --bacth 2");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("unknown option --bacth"), std::string::npos) << r.output;
  EXPECT_EQ(seam("run " + file + " --backend quantum").code, 1);
}

TEST_F(Tool, RunWritesOutputsAndComparesWithExpected) {
  std::string file = write("small.seam", kSmall);
  Result first = seam("run " + file + " --seed 3 --out " + path("out"));
  ASSERT_EQ(first.code, 0) << first.output;
  ASSERT_TRUE(std::filesystem::exists(path("out/sum.npy")));
  ASSERT_TRUE(std::filesystem::exists(path("out/t.npy")));
  // The same seed reproduces the outputs; the host backend's generated code agrees with them.
  EXPECT_EQ(seam("run " + file + " --seed 3 --expect " + path("out")).code, 0);
  Result host = seam("run " + file + " --seed 3 --backend host --expect " + path("out"));
  EXPECT_EQ(host.code, 0) << host.output;
  // Another seed gives other outputs: exit code 3 with the mismatch described.
  Result other = seam("run " + file + " --seed 4 --expect " + path("out"));
  EXPECT_EQ(other.code, 3) << other.output;
  EXPECT_NE(other.output.find("MISMATCH"), std::string::npos) << other.output;
}

TEST_F(Tool, RunReadsInputsFromNpy) {
  std::string file = write("small.seam", kSmall);
  HostTensor x = HostTensor::zeros(DType::Float32, {2, 3}), y = HostTensor::zeros(DType::Float32, {2, 3});
  for (int64_t i = 0; i < 6; ++i) {
    x.set_double(i, static_cast<double>(i));
    y.set_double(i, 10.0);
  }
  write_npy(path("x.npy"), x);
  write_npy(path("y.npy"), y);
  Result r = seam("run " + file + " --input x=" + path("x.npy") + " --input 1=" + path("y.npy") + " --out " +
                  path("o"));
  ASSERT_EQ(r.code, 0) << r.output;
  HostTensor sum = read_npy(path("o/sum.npy"), DType::Float32);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(sum.get_double(i), 10.0 + static_cast<double>(i));
  // A file of the wrong shape is refused before running.
  write_npy(path("wrong.npy"), HostTensor::zeros(DType::Float32, {3, 2}));
  Result wrong = seam("run " + file + " --input x=" + path("wrong.npy"));
  EXPECT_EQ(wrong.code, 1);
  EXPECT_NE(wrong.output.find("f32[3,2]"), std::string::npos) << wrong.output;
  Result not_an_input = seam("run " + file + " --input z=" + path("x.npy"));
  EXPECT_EQ(not_an_input.code, 1);
  EXPECT_NE(not_an_input.output.find("'z'"), std::string::npos) << not_an_input.output;
}

TEST_F(Tool, WorkloadPassesSegmentEmit) {
  Result w = seam("workload rope --config Llama-2-13b-hf --batch 2 --seq 16 --contract thunder -o " +
                  path("rope.seam"));
  ASSERT_EQ(w.code, 0) << w.output;
  EXPECT_EQ(seam("verify " + path("rope.seam")).code, 0);
  Result bwd = seam("workload rope --config W3 --batch 1 --seq 4 --contract rope-only --backward");
  EXPECT_EQ(bwd.code, 0);
  EXPECT_NE(bwd.output.find("return dqkv="), std::string::npos) << bwd.output.substr(0, 300);
  EXPECT_EQ(seam("workload rope --config NoSuchModel").code, 1);
  Result seg = seam("segment " + path("rope.seam"));
  EXPECT_EQ(seg.code, 0) << seg.output;
  EXPECT_NE(seg.output.find("kernels: 1"), std::string::npos) << seg.output;
  Result dot = seam("segment " + path("rope.seam") + " --draw " + path("rope.dot"));
  EXPECT_EQ(dot.code, 0) << dot.output;
  EXPECT_TRUE(std::filesystem::exists(path("rope.dot")));
  Result passes = seam("passes " + path("rope.seam"));
  EXPECT_EQ(passes.code, 0);
  EXPECT_EQ(seam("pass cse " + path("rope.seam")).code, 0);
  Result bad_pass = seam("pass no_such_pass " + path("rope.seam"));
  EXPECT_EQ(bad_pass.code, 1);
  EXPECT_NE(bad_pass.output.find("dead_code"), std::string::npos) << "lists the valid passes";
  Result emit = seam("emit " + path("rope.seam"));
  EXPECT_EQ(emit.code, 0);
  EXPECT_NE(emit.output.find("seam_load<8>"), std::string::npos) << "16-byte vector loads";
  Result transformer = seam("workload transformer --layers 2");
  EXPECT_EQ(transformer.code, 0);
}

// --compile: NVRTC without a GPU, then each kernel's registers from the cubin.
TEST_F(Tool, EmitCompileReportsRegisters) {
  std::string file = write("small.seam", kSmall);
  Result host = seam("emit " + file + " --target host --compile sm_90");
  EXPECT_EQ(host.code, 1);
  EXPECT_NE(host.output.find("--compile needs --target cuda"), std::string::npos) << host.output;
  Result r = seam("emit " + file + " --compile sm_90");
  if (r.output.find("without NVRTC") != std::string::npos) GTEST_SKIP() << "built without NVRTC";
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("// cubin for sm_90: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", hash "), std::string::npos) << r.output;
  Result again = seam("emit " + file + " --compile sm_90");  // NVRTC is deterministic
  auto hash_line = [](const std::string& text) { return text.substr(text.find("// cubin"), 60); };
  EXPECT_EQ(hash_line(again.output), hash_line(r.output));
  EXPECT_NE(r.output.find(" registers per thread"), std::string::npos) << r.output;
  // Matrix products run by a library have no generated code: the other kernels still compile.
  ASSERT_EQ(seam("workload transformer --layers 1 -o " + path("t.seam")).code, 0);
  Result transformer = seam("emit " + path("t.seam") + " --compile sm_90");
  EXPECT_EQ(transformer.code, 0) << transformer.output.substr(0, 2000);
  // Row kernels have static shared memory (a NOBITS section in the cubin): their count is read too.
  EXPECT_NE(transformer.output.find("row kernel"), std::string::npos);
  EXPECT_EQ(transformer.output.find("registers unknown"), std::string::npos)
      << transformer.output.substr(transformer.output.find("// cubin"));
  Result bad = seam("emit " + file + " --compile sm_nope");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.output.find("sm_nope"), std::string::npos) << bad.output;
}

TEST_F(Tool, CudaBackendWithoutAGpuSaysSo) {
  std::string file = write("small.seam", kSmall);
  Result r = seam("run " + file + " --backend cuda");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("needs a GPU"), std::string::npos) << r.output;
}

TEST_F(Tool, Demo) {
  Result r = seam("demo --seq 2");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("round trip exact"), std::string::npos);
  EXPECT_NE(r.output.find("1 kernel(s), proven optimal"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace seam
