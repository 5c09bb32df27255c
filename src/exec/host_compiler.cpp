#include "exec/host_compiler.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "codegen/embedded_headers.h"
#include "support/error.h"
#include "support/process.h"

namespace seam {

HostModule::~HostModule() {
  if (handle_) dlclose(handle_);
}

HostModule::Entry HostModule::entry(const std::string& kernel_name) const {
  void* symbol = dlsym(handle_, kernel_name.c_str());
  SEAM_CHECK(symbol != nullptr, "host module ", path_, " has no kernel '", kernel_name, "'");
  return reinterpret_cast<Entry>(symbol);
}

void HostModule::probe(int64_t* r) const {
  reinterpret_cast<void (*)(long long*)>(dlsym(handle_, "seam_probe"))(reinterpret_cast<long long*>(r));
}

namespace {

void write_file(const std::filesystem::path& path, std::string_view text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  SEAM_CHECK(out.good(), "cannot write ", path.string());
}

}  // namespace

std::shared_ptr<HostModule> compile_host_kernels(const std::vector<std::string>& sources,
                                                 const std::string& reproducer) {
  std::string pattern = (std::filesystem::temp_directory_path() / "seam-host-XXXXXX").string();
  SEAM_CHECK(mkdtemp(pattern.data()) != nullptr, "cannot create a temporary directory for host kernels");
  const std::filesystem::path dir(pattern);
  for (const EmbeddedHeader& header : embedded_headers()) write_file(dir / header.name, header.text);
  std::string source = "#include \"seam_host.h\"\n\n";
  for (const std::string& s : sources) source += s + "\n";
  write_file(dir / "kernels.cpp", source);
  static std::atomic<uint64_t> modules{0};
  const std::filesystem::path library = dir / ("kernels-" + std::to_string(modules++) + ".so");
  if (!reproducer.empty()) write_file(dir / "reproducer.txt", reproducer);

  // SEAM_HOST_CXX may name a wrapper and a compiler ("ccache g++"): words, never a shell command line.
  const char* cxx = std::getenv("SEAM_HOST_CXX");
  std::vector<std::string> command = split_words(cxx && *cxx ? cxx : "c++");
  SEAM_CHECK(!command.empty(), "SEAM_HOST_CXX names no compiler");
  for (std::string arg : {std::string("-std=c++20"), std::string("-O0"), std::string("-fPIC"),
                          std::string("-shared"), std::string("-w"), "-I" + dir.string(), std::string("-o"),
                          library.string(), (dir / "kernels.cpp").string()})
    command.push_back(std::move(arg));
  const ProcessResult compiled = run_process(command);
  if (compiled.exit_code != 0) {
    std::string line;
    for (const std::string& word : command) line += (line.empty() ? "" : " ") + word;
    throw Error(detail::concat("host compilation of generated kernels failed (", line, ", exit ",
                               compiled.exit_code, "):\n", compiled.output, "\nsource kept in ",
                               dir.string()));
  }
  // dlopen returns an already loaded object of the same path instead of loading the file: a name no
  // earlier module of this process had, even where a removed temporary directory's name comes back.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  SEAM_CHECK(handle != nullptr, "cannot load host kernels: ", dlerror());
  // The loaded object stays mapped; the files are no longer needed.
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return std::make_shared<HostModule>(handle, library.string());
}

}  // namespace seam
