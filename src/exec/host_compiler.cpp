#include "exec/host_compiler.h"

#include <dlfcn.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/embedded_headers.h"
#include "support/error.h"

namespace seam {

HostModule::~HostModule() {
  if (handle_) dlclose(handle_);
}

HostModule::Entry HostModule::entry(const std::string& kernel_name) const {
  void* symbol = dlsym(handle_, kernel_name.c_str());
  SEAM_CHECK(symbol != nullptr, "host module ", path_, " has no kernel '", kernel_name, "'");
  return reinterpret_cast<Entry>(symbol);
}

namespace {

void write_file(const std::filesystem::path& path, std::string_view text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  SEAM_CHECK(out.good(), "cannot write ", path.string());
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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
  if (!reproducer.empty()) write_file(dir / "reproducer.txt", reproducer);

  const char* cxx = std::getenv("SEAM_HOST_CXX");
  std::string command = std::string(cxx && *cxx ? cxx : "c++") + " -std=c++20 -O0 -fPIC -shared -w -I" +
                        shell_quote(dir.string()) + " -o " + shell_quote((dir / "kernels.so").string()) +
                        " " + shell_quote((dir / "kernels.cpp").string()) + " > " +
                        shell_quote((dir / "compile.log").string()) + " 2>&1";
  int status = std::system(command.c_str());
  if (status != 0) {
    std::ifstream log(dir / "compile.log");
    std::stringstream text;
    text << log.rdbuf();
    throw Error(detail::concat("host compilation of generated kernels failed (", command, "):\n", text.str(),
                               "\nsource kept in ", dir.string()));
  }
  void* handle = dlopen((dir / "kernels.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  SEAM_CHECK(handle != nullptr, "cannot load host kernels: ", dlerror());
  // The loaded object stays mapped; the files are no longer needed.
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return std::make_shared<HostModule>(handle, (dir / "kernels.so").string());
}

}  // namespace seam
