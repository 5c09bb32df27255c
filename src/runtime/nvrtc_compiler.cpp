#include "runtime/nvrtc_compiler.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "runtime/runtime_env.h"
#include "support/error.h"
#include "support/hash.h"

#if SEAM_WITH_NVRTC
#include <dlfcn.h>
#include <nvrtc.h>

#include <mutex>
#endif

namespace seam {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void check_arch(const std::string& arch) {
  static const std::regex pattern("(sm|compute)_[0-9]+[a-z]?");
  SEAM_CHECK(std::regex_match(arch, pattern), "invalid GPU architecture '", arch,
             "' for NVRTC: expected sm_XY (cubin) or compute_XY (PTX), e.g. sm_90");
}

bool is_cubin_arch(const std::string& arch) { return arch.rfind("sm_", 0) == 0; }

std::filesystem::path failure_dir() {
  if (std::optional<std::string> dir = env_string("SEAM_FAILURE_DIR")) return *dir;
  std::error_code error;
  std::filesystem::path temp = std::filesystem::temp_directory_path(error);
  return error ? std::filesystem::path("/tmp") : temp;
}

// Saves the failing source and everything needed to reproduce the failure; returns the lines naming
// the files for the error message (or why they could not be written: that must not hide the real error).
std::string write_failure_files(const CompileRequest& request, const std::vector<std::string>& options,
                                const std::string& log) {
  uint64_t id = hash64(request.source);
  for (const std::string& option : options) id = hash_combine(id, hash64(option));
  for (const auto& [name, content] : request.headers) id = hash_combine(id, hash64(name + '\n' + content));
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(id));
  std::filesystem::path dir = failure_dir();
  std::filesystem::path source_path = dir / ("seam_failed_" + std::string(hex) + ".cu");
  std::filesystem::path repro_path = dir / ("seam_failed_" + std::string(hex) + ".repro.txt");

  std::error_code error;
  std::filesystem::create_directories(dir, error);
  std::ofstream source_file(source_path, std::ios::binary);
  source_file << request.source;
  std::ofstream repro(repro_path, std::ios::binary);
  repro << "# seam: NVRTC compilation failure\n";
  repro << "program: " << request.program_name << "\narch: " << request.arch << "\nnvrtc: " << nvrtc_version()
        << "\noptions:";
  for (const std::string& option : options) repro << ' ' << option;
  repro << "\nkernels:";
  for (const std::string& name : request.kernel_names) repro << ' ' << name;
  repro << "\nsource: " << source_path.string() << "\n\n## reproducer\n" << request.reproducer << "\n";
  for (const auto& [name, content] : request.headers) {
    repro << "\n## header " << name << "\n" << content << "\n";
  }
  repro << "\n## log\n" << log << "\n";
  source_file.close();
  repro.close();
  if (!source_file || !repro) {
    return "\n(could not write the failing source to " + dir.string() + "; set SEAM_FAILURE_DIR)";
  }
  return "\nsource saved to " + source_path.string() + "\nreproducer saved to " + repro_path.string();
}

}  // namespace

const std::string& CompiledKernel::symbol(const std::string& kernel_name) const {
  for (const auto& [name, symbol] : symbols) {
    if (name == kernel_name) return symbol;
  }
  throw Error("kernel '" + kernel_name + "' was not requested when compiling for " + arch);
}

std::vector<std::string> cuda_include_dirs() {
  if (std::optional<std::string> dirs = env_string("SEAM_CUDA_INCLUDE")) return split(*dirs, ':');
#ifdef SEAM_CUDA_INCLUDE_DIRS
  return split(SEAM_CUDA_INCLUDE_DIRS, ':');
#else
  return {};
#endif
}

std::vector<std::string> nvrtc_options(const CompileRequest& request) {
  check_arch(request.arch);
  std::vector<std::string> options = {"--gpu-architecture=" + request.arch, "--std=c++17", "-default-device"};
  // NVRTC has no -O3; full optimization is its default, and ptxas is asked for its highest level.
  if (is_cubin_arch(request.arch)) options.push_back("--ptxas-options=-O3");
  if (request.line_info) options.push_back("-lineinfo");
  for (const std::string& dir : cuda_include_dirs()) options.push_back("-I" + dir);
  options.insert(options.end(), request.options.begin(), request.options.end());
  return options;
}

#if SEAM_WITH_NVRTC

namespace {

// NVRTC's entry points, opened with dlopen on first use (src/CMakeLists.txt says why it is not linked).
struct Nvrtc {
  decltype(&nvrtcGetErrorString) get_error_string = nullptr;
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcCreateProgram) create_program = nullptr;
  decltype(&nvrtcDestroyProgram) destroy_program = nullptr;
  decltype(&nvrtcAddNameExpression) add_name_expression = nullptr;
  decltype(&nvrtcCompileProgram) compile_program = nullptr;
  decltype(&nvrtcGetProgramLogSize) get_program_log_size = nullptr;
  decltype(&nvrtcGetProgramLog) get_program_log = nullptr;
  decltype(&nvrtcGetCUBINSize) get_cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) get_cubin = nullptr;
  decltype(&nvrtcGetPTXSize) get_ptx_size = nullptr;
  decltype(&nvrtcGetPTX) get_ptx = nullptr;
  decltype(&nvrtcGetLoweredName) get_lowered_name = nullptr;
  std::string error;  // why it could not be loaded; empty when loaded
};

template <typename Fn>
bool resolve(void* handle, const char* name, Fn& fn, std::string& error) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (fn == nullptr && error.empty()) error = std::string("NVRTC has no ") + name;
  return fn != nullptr;
}

Nvrtc load_nvrtc() {
  Nvrtc api;
  // SEAM_NVRTC_LIBRARY, then the soname through the loader's search, the path CMake found, and the
  // toolkit's usual directories (a binary built on one machine and run on another).
  std::vector<std::string> names;
  if (std::optional<std::string> env = env_string("SEAM_NVRTC_LIBRARY"); env && !env->empty())
    names.push_back(*env);
  names.push_back(SEAM_NVRTC_SONAME);
  names.push_back(SEAM_NVRTC_PATH);
  for (const char* dir : {"/usr/local/cuda/lib64/", "/usr/local/cuda/lib/"})
    names.push_back(std::string(dir) + SEAM_NVRTC_SONAME);
  void* handle = nullptr;
  std::string tried;
  for (const std::string& name : names) {
    handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) break;
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : name);
  }
  if (handle == nullptr) {
    api.error = "cannot load NVRTC (set SEAM_NVRTC_LIBRARY): " + tried;
    return api;
  }
  std::string& e = api.error;
  resolve(handle, "nvrtcGetErrorString", api.get_error_string, e);
  resolve(handle, "nvrtcVersion", api.version, e);
  resolve(handle, "nvrtcCreateProgram", api.create_program, e);
  resolve(handle, "nvrtcDestroyProgram", api.destroy_program, e);
  resolve(handle, "nvrtcAddNameExpression", api.add_name_expression, e);
  resolve(handle, "nvrtcCompileProgram", api.compile_program, e);
  resolve(handle, "nvrtcGetProgramLogSize", api.get_program_log_size, e);
  resolve(handle, "nvrtcGetProgramLog", api.get_program_log, e);
  resolve(handle, "nvrtcGetCUBINSize", api.get_cubin_size, e);
  resolve(handle, "nvrtcGetCUBIN", api.get_cubin, e);
  resolve(handle, "nvrtcGetPTXSize", api.get_ptx_size, e);
  resolve(handle, "nvrtcGetPTX", api.get_ptx, e);
  resolve(handle, "nvrtcGetLoweredName", api.get_lowered_name, e);
  return api;  // the library stays loaded for the process's life
}

// The loaded NVRTC; throws seam::Error when it cannot be loaded.
const Nvrtc& nvrtc() {
  static const Nvrtc api = load_nvrtc();
  SEAM_CHECK(api.error.empty(), api.error);
  return api;
}

void check_nvrtc(nvrtcResult result, const char* call, const std::string& program) {
  SEAM_CHECK(result == NVRTC_SUCCESS, call, " failed for ", program, ": ", nvrtc().get_error_string(result));
}

// NVRTC 12.9+ keeps its own cache of compiled programs, so a "cold" compile can be a hit there;
// SEAM_NVRTC_NO_CACHE=1 turns it off (for measuring cold compiles). Not part of nvrtc_options: seam's
// cache keys stay the same with and without it.
bool nvrtc_cache_off() {
  if (!env_flag("SEAM_NVRTC_NO_CACHE")) return false;
  int major = 0, minor = 0;
  return nvrtc().version(&major, &minor) == NVRTC_SUCCESS && (major > 12 || (major == 12 && minor >= 9));
}

// Destroys the program on every path out of compile_cuda.
struct ProgramHandle {
  nvrtcProgram program = nullptr;
  ~ProgramHandle() {
    if (program != nullptr) nvrtc().destroy_program(&program);
  }
};

}  // namespace

bool nvrtc_available() { return true; }

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtc().version(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string nvrtc_build_version() { return SEAM_NVRTC_BUILD_VERSION; }

CompiledKernel compile_cuda(const CompileRequest& request) {
  const Nvrtc& api = nvrtc();
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> options = nvrtc_options(request);
  if (nvrtc_cache_off()) options.push_back("--no-cache");
  const std::string& program_name = request.program_name;

  std::vector<const char*> header_contents, header_names;
  for (const auto& [name, content] : request.headers) {
    header_names.push_back(name.c_str());
    header_contents.push_back(content.c_str());
  }
  ProgramHandle handle;
  check_nvrtc(api.create_program(&handle.program, request.source.c_str(), program_name.c_str(),
                                 static_cast<int>(header_contents.size()), header_contents.data(),
                                 header_names.data()),
              "nvrtcCreateProgram", program_name);
  // Every kernel is a name expression, so a misspelled kernel fails here (not at load time), and
  // templates get their mangled names.
  for (const std::string& name : request.kernel_names) {
    check_nvrtc(api.add_name_expression(handle.program, name.c_str()), "nvrtcAddNameExpression",
                program_name);
  }

  std::vector<const char*> option_pointers;
  for (const std::string& option : options) option_pointers.push_back(option.c_str());
  nvrtcResult result =
      api.compile_program(handle.program, static_cast<int>(option_pointers.size()), option_pointers.data());

  size_t log_size = 0;
  std::string log;
  if (api.get_program_log_size(handle.program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    log.resize(log_size);
    if (api.get_program_log(handle.program, log.data()) != NVRTC_SUCCESS) log.clear();
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  }
  if (result != NVRTC_SUCCESS) {
    throw Error("NVRTC failed to compile " + program_name + " for " + request.arch + ": " +
                api.get_error_string(result) + "\n" + log + write_failure_files(request, options, log));
  }

  CompiledKernel compiled;
  compiled.arch = request.arch;
  compiled.is_cubin = is_cubin_arch(request.arch);
  compiled.log = log;
  size_t size = 0;
  if (compiled.is_cubin) {
    check_nvrtc(api.get_cubin_size(handle.program, &size), "nvrtcGetCUBINSize", program_name);
    compiled.binary.resize(size);
    check_nvrtc(api.get_cubin(handle.program, compiled.binary.data()), "nvrtcGetCUBIN", program_name);
  } else {
    check_nvrtc(api.get_ptx_size(handle.program, &size), "nvrtcGetPTXSize", program_name);
    compiled.binary.resize(size);
    check_nvrtc(api.get_ptx(handle.program, compiled.binary.data()), "nvrtcGetPTX", program_name);
  }
  for (const std::string& name : request.kernel_names) {
    const char* lowered = nullptr;
    check_nvrtc(api.get_lowered_name(handle.program, name.c_str(), &lowered),
                ("nvrtcGetLoweredName(\"" + name + "\")").c_str(), program_name);
    compiled.symbols.emplace_back(name, lowered);
  }
  compiled.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return compiled;
}

#else  // !SEAM_WITH_NVRTC

bool nvrtc_available() { return false; }
std::string nvrtc_version() { return "none"; }
std::string nvrtc_build_version() { return "none"; }

CompiledKernel compile_cuda(const CompileRequest& request) {
  throw Error("seam was built without NVRTC: cannot compile " + request.program_name +
              " (configure with the CUDA toolkit and SEAM_WITH_NVRTC=ON)");
}

#endif

}  // namespace seam
