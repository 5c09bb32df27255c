// scatter on the GPU against the reference interpreter (tests/testing/scatter_cases.h at GPU sizes:
// thousands of rows, every axis, index and data dtype, strided operands, scalar sources, intermediates,
// empty tensors), bit for bit where indices are distinct; where they repeat, each element holds one of the
// values written to it (torch's CUDA scatter gives any one). An index out of range raises seam::Error naming
// the op and the index through run, run_device and run_into, without writing out of bounds (GpuSuite.*:
// scripts/gpu_check.sh also runs them under compute-sanitizer memcheck).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "device_tensors.h"
#include "exec/executable.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "support/error.h"
#include "support/parallel.h"
#include "testing/scatter_cases.h"

namespace seam {
namespace {

using testing_scatter::ScatterCase;

ExecutableOptions cuda() {
  ExecutableOptions options;
  options.backend = Backend::Cuda;
  options.poison_outputs = true;
  return options;
}

// The bits of element i of a contiguous tensor (at most 8 bytes).
uint64_t element_bits(const HostTensor& t, int64_t i) {
  SEAM_ASSERT(t.is_contiguous());
  const size_t size = dtype_size(t.dtype());
  uint64_t bits = 0;
  std::memcpy(&bits, t.storage().data() + i * static_cast<int64_t>(size), size);
  return bits;
}

// For a case of one scatter of contiguous inputs (x, index, src): per written output element, the bits of
// every source element written to it.
std::map<int64_t, std::set<uint64_t>> written_values(const ScatterCase& c) {
  const Node& scatter = c.fusion.node(c.fusion.outputs()[0].value);
  const size_t axis = static_cast<size_t>(scatter.attrs.get_int("axis"));
  const HostTensor &x = c.inputs[0], &index = c.inputs[1], &src = c.inputs[2];
  std::map<int64_t, std::set<uint64_t>> written;
  for (int64_t i = 0; i < index.numel(); ++i) {
    std::vector<int64_t> at(index.shape().size());
    int64_t rest = i;
    for (size_t d = at.size(); d-- > 0;) {
      at[d] = rest % index.shape()[d];
      rest /= index.shape()[d];
    }
    int64_t src_linear = 0, out_linear = 0;
    const int64_t extent = x.shape()[axis];
    for (size_t d = 0; d < at.size(); ++d) {
      src_linear = src_linear * src.shape()[d] + at[d];
      const int64_t p = d == axis ? (index.get_int(i) + extent) % extent : at[d];
      out_linear = out_linear * x.shape()[d] + p;
    }
    written[out_linear].insert(element_bits(src, src_linear));
  }
  return written;
}

TEST(GpuSuite, ScatterMatchesInterpreter) {
  SKIP_WITHOUT_GPU();
  // SEAM_GPU_QUICK (the suite under compute-sanitizer): the cases at a smaller size.
  const std::vector<ScatterCase> cases =
      testing_scatter::scatter_cases(std::getenv("SEAM_GPU_QUICK") ? 8 : 64);
  std::vector<std::unique_ptr<Executable>> exes =
      parallel_map(cases.size(), [&](size_t i) { return Executable::compile(cases[i].fusion, cuda()); });
  for (size_t i = 0; i < cases.size(); ++i) {
    const ScatterCase& c = cases[i];
    SCOPED_TRACE(c.name);
    const std::vector<HostTensor> expected = interpret(c.fusion, c.inputs);
    const std::vector<HostTensor> actual = exes[i]->run(c.inputs);
    ASSERT_EQ(actual.size(), expected.size());
    if (!c.duplicates) {
      for (size_t o = 0; o < actual.size(); ++o)
        EXPECT_EQ(actual[o].storage(), expected[o].storage()) << c.name << " output " << o;
      continue;
    }
    const auto written = written_values(c);
    for (int64_t e = 0; e < actual[0].numel(); ++e) {
      const auto it = written.find(e);
      if (it == written.end())
        EXPECT_EQ(element_bits(actual[0], e), element_bits(c.inputs[0], e))
            << "element " << e << " unwritten";
      else
        EXPECT_TRUE(it->second.count(element_bits(actual[0], e)))
            << "element " << e << " holds no written value";
    }
  }
}

// The Python frontend's path: device inputs, outputs seam allocates; and caller output buffers.
TEST(GpuSuite, ScatterRunDeviceAndRunInto) {
  SKIP_WITHOUT_GPU();
  for (const ScatterCase& c : testing_scatter::scatter_cases(16)) {
    if (c.name != "intermediates" && c.name != "scalar_sources") continue;
    SCOPED_TRACE(c.name);
    auto exe = Executable::compile(c.fusion, cuda());
    const std::vector<HostTensor> expected = interpret(c.fusion, c.inputs);
    std::vector<DeviceTensor> inputs;
    for (const HostTensor& t : c.inputs) inputs.push_back(to_device(t));
    const std::vector<DeviceTensor> outputs = exe->run_device(inputs, nullptr);
    for (size_t o = 0; o < outputs.size(); ++o)
      EXPECT_EQ(to_host(outputs[o]).storage(), expected[o].storage()) << "run_device output " << o;
    std::vector<DeviceTensor> into;
    for (const HostTensor& e : expected) into.push_back(to_device(HostTensor::zeros(e.dtype(), e.shape())));
    exe->run_into(inputs, into, nullptr);
    for (size_t o = 0; o < into.size(); ++o)
      EXPECT_EQ(to_host(into[o]).storage(), expected[o].storage()) << "run_into output " << o;
  }
}

TEST(GpuSuite, ScatterOutOfRangeIsAnErrorWithoutOutOfBoundsWrites) {
  SKIP_WITHOUT_GPU();
  Builder b("bad_scatter");
  Value x = b.input(Type::tensor(DType::Float32, {100, 8}), "x");
  Value i = b.input(Type::tensor(DType::Int64, {4, 8}), "index");
  Value s = b.input(Type::tensor(DType::Float32, {4, 8}), "src");
  const Fusion fusion = b.finish({b.scatter(x, 0, i, s)});
  auto exe = Executable::compile(fusion, cuda());
  std::mt19937_64 rng(5);
  const HostTensor data = HostTensor::random(DType::Float32, {100, 8}, rng);
  const HostTensor src = HostTensor::random(DType::Float32, {4, 8}, rng);
  std::vector<int64_t> values(32, 3);
  values[13] = 1000000;
  const HostTensor bad = HostTensor::from_ints(DType::Int64, {4, 8}, values);
  for (int attempt = 0; attempt < 3; ++attempt) {  // run, run_device, then run_into (Python's path)
    try {
      if (attempt == 0) {
        exe->run({data, bad, src});
      } else if (attempt == 1) {
        exe->run_device({to_device(data), to_device(bad), to_device(src)}, nullptr);
      } else {
        const DeviceTensor out = to_device(HostTensor::zeros(DType::Float32, {100, 8}));
        exe->run_into({to_device(data), to_device(bad), to_device(src)}, {out}, nullptr);
      }
      ADD_FAILURE() << "no error for an index out of range (attempt " << attempt << ")";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(
          message.find("scatter: index 1000000 is out of range for axis 0 of extent 100 (valid: -100 to 99)"),
          std::string::npos)
          << message;
    }
  }
  const HostTensor good = testing_scatter::scatter_indices(DType::Int64, {4, 8}, 0, 100, false, rng);
  EXPECT_EQ(exe->run({data, good, src})[0].storage(), interpret(fusion, {data, good, src})[0].storage());
}

}  // namespace
}  // namespace seam
