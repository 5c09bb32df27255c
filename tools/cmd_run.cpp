// run: a fusion on the reference interpreter, inputs from .npy files or seeded random, outputs to .npy,
// optionally compared with expected outputs.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "commands.h"
#include "exec/executable.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "support/error.h"
#include "tensor/tensor_files.h"
#include "tensor/tensor_npy.h"

namespace seam::tool {
namespace {

// One line describing a tensor's values, enough to eyeball a run.
std::string summarize(const HostTensor& t) {
  double sum = 0, absmax = 0;
  int64_t nonfinite = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.get_double(i);
    if (!std::isfinite(v)) {
      ++nonfinite;
      continue;
    }
    sum += v;
    absmax = std::max(absmax, std::fabs(v));
  }
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "mean %.6g, absmax %.6g%s", t.numel() ? sum / t.numel() : 0.0, absmax,
                nonfinite ? (", " + std::to_string(nonfinite) + " non-finite").c_str() : "");
  return buffer;
}

// Reads every expected output before anything runs, so that a missing or unreadable file is reported
// (all of them at once) before a single output is written.
std::vector<HostTensor> read_expected(const Fusion& fusion, const std::string& dir) {
  std::vector<HostTensor> expected;
  std::string problems;
  for (size_t i = 0; i < fusion.outputs().size(); ++i) {
    const std::string path = dir + "/" + fusion_output_name(fusion, i) + ".npy";
    try {
      expected.push_back(read_npy(path, fusion.type(fusion.outputs()[i].value).dtype));
    } catch (const Error& e) {
      problems += detail::concat("\n  output ", fusion_output_name(fusion, i), ": ", e.what());
    }
  }
  SEAM_CHECK(problems.empty(), "--expect ", dir,
             ": cannot read the expected outputs (nothing was run):", problems);
  return expected;
}

}  // namespace

int cmd_run(Args& args) {
  const std::string backend = args.get_or("backend", "interp");
  const auto given = args.get_all("input");
  const auto inputs_dir = args.get("inputs");
  const uint64_t seed = static_cast<uint64_t>(args.get_int("seed", 0));
  const auto out_dir = args.get("out");
  const auto expect_dir = args.get("expect");
  const bool custom_tolerance = args.has("rtol") || args.has("atol");
  const double rtol = args.get_double("rtol", 0), atol = args.get_double("atol", 0);
  const bool poison = args.has("poison");
  args.reject_unused();
  SEAM_CHECK(backend == "interp" || backend == "host" || backend == "cuda", "unknown backend '", backend,
             "' (expected interp, host or cuda)");
  const Fusion fusion = load_fusion(args.positional_at(0, "FILE"));
  if (out_dir) prepare_output_dir(*out_dir, "--out");
  const std::vector<HostTensor> expected =
      expect_dir ? read_expected(fusion, *expect_dir) : std::vector<HostTensor>{};

  // Resolve each input: explicit --input, then --inputs DIR, then random.
  std::map<std::string, std::string> paths;
  for (const std::string& item : given) {
    size_t eq = item.find('=');
    SEAM_CHECK(eq != std::string::npos && eq > 0, "--input needs NAME=PATH, got '", item, "'");
    paths[item.substr(0, eq)] = item.substr(eq + 1);
  }
  std::vector<HostTensor> inputs = random_inputs(fusion, seed);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = fusion_input_name(fusion, i);
    std::string path;
    if (paths.count(name))
      path = paths[name];
    else if (paths.count(std::to_string(i)))
      path = paths[std::to_string(i)];
    else if (inputs_dir && std::filesystem::exists(*inputs_dir + "/" + name + ".npy"))
      path = *inputs_dir + "/" + name + ".npy";
    paths.erase(name);
    paths.erase(std::to_string(i));
    const Type& type = fusion.type(fusion.inputs()[i]);
    if (path.empty()) {
      std::cout << "input " << name << ": " << type.to_string() << " random (seed " << seed << ")\n";
      continue;
    }
    HostTensor tensor = read_npy(path, type.dtype);
    // A file holds a contiguous tensor; lay it out with the declared strides.
    SEAM_CHECK(tensor.dtype() == type.dtype && tensor.shape() == type.shape, "input ", i, " ('", name,
               "'): ", path, " holds ", Type::tensor(tensor.dtype(), tensor.shape()).to_string(),
               ", the fusion declares ", type.to_string());
    for (int64_t e = 0; e < tensor.numel(); ++e) {
      if (is_floating(type.dtype))
        inputs[i].set_double(e, tensor.get_double(e));
      else
        inputs[i].set_int(e, tensor.get_int(e));
    }
    std::cout << "input " << name << ": " << type.to_string() << " from " << path << "\n";
  }
  SEAM_CHECK(paths.empty(), "--input names '", paths.begin()->first, "', which is not an input of fusion ",
             fusion.name());

  std::vector<HostTensor> outputs;
  if (backend == "interp") {
    outputs = interpret(fusion, inputs);
  } else {
    ExecutableOptions options;
    options.backend = parse_backend(backend);
    options.poison_outputs = poison;
    auto executable = Executable::compile(fusion, options);
    std::cout << "compiled for " << backend << ": " << executable->segmented().num_kernels()
              << " kernel(s)\n";
    outputs = executable->run(inputs);
  }
  if (out_dir) write_outputs_to_dir(fusion, outputs, *out_dir);
  int mismatches = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string name = fusion_output_name(fusion, i);
    std::cout << "output " << name << ": " << fusion.type(fusion.outputs()[i].value).to_string() << "  "
              << summarize(outputs[i]) << "\n";
    if (!expect_dir) continue;
    Tolerance tolerance = custom_tolerance ? Tolerance{rtol, atol} : default_tolerance(outputs[i].dtype());
    Comparison c = compare_tensors(outputs[i], expected[i], tolerance);
    std::cout << "  vs " << *expect_dir << "/" << name
              << ".npy: " << (c.ok ? "match" : "MISMATCH: " + c.message) << " (max abs diff "
              << c.max_abs_diff << ")\n";
    mismatches += c.ok ? 0 : 1;
  }
  if (expect_dir)
    std::cout << (mismatches ? std::to_string(mismatches) + " of " + std::to_string(outputs.size()) +
                                   " outputs differ from " + *expect_dir
                             : "all " + std::to_string(outputs.size()) + " outputs match " + *expect_dir)
              << "\n";
  const bool all_match = mismatches == 0;
  return all_match ? kExitOk : kExitMismatch;
}

}  // namespace seam::tool
