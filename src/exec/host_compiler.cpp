#include "exec/host_compiler.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "codegen/embedded_headers.h"
#include "exec/host_interrupt.h"
#include "runtime/binary_cache.h"
#include "support/error.h"
#include "support/hash.h"
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

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// What `COMPILER --version` prints, once per compiler command of the process: part of a module's cache
// key, so that another compiler behind the same name never reuses an older one's objects.
std::string compiler_identity(const std::vector<std::string>& compiler) {
  static std::mutex lock;
  static std::map<std::vector<std::string>, std::string> identities;
  const std::lock_guard<std::mutex> hold(lock);
  auto found = identities.find(compiler);
  if (found != identities.end()) return found->second;
  std::vector<std::string> command = compiler;
  command.push_back("--version");
  std::string identity;
  try {
    const ProcessResult version = run_process(command);
    identity = std::to_string(version.exit_code) + "\n" + version.output;
  } catch (const Error& e) {  // not startable: the compile itself will say so
    identity = e.what();
  }
  return identities.emplace(compiler, identity).first->second;
}

// The key of a compiled module: everything the shared object depends on (compiler, its version, flags,
// the embedded headers, the kernels' source).
CacheKey host_module_key(const std::vector<std::string>& compiler, const std::vector<std::string>& flags,
                         const std::string& source) {
  std::string text = "seam host module v1\n";
  for (const std::string& word : compiler) text += word + '\n';
  text += compiler_identity(compiler) + '\n';
  for (const std::string& flag : flags) text += flag + '\n';
  for (const EmbeddedHeader& header : embedded_headers()) {
    text.append(header.name);
    text += '\0';
    text.append(header.text);
    text += '\0';
  }
  text += source;
  return CacheKey{sha256(text)};
}

}  // namespace

std::shared_ptr<HostModule> compile_host_kernels(const std::vector<std::string>& sources,
                                                 const std::string& reproducer, ModuleOrigin* origin,
                                                 bool optimize) {
  std::string source = "#include \"seam_host.h\"\n\n";
  for (const std::string& s : sources) source += s + "\n";
  // SEAM_HOST_CXX may name a wrapper and a compiler ("ccache g++"): words, never a shell command line.
  const char* cxx = std::getenv("SEAM_HOST_CXX");
  const std::vector<std::string> compiler = split_words(cxx && *cxx ? cxx : "c++");
  SEAM_CHECK(!compiler.empty(), "SEAM_HOST_CXX names no compiler");
  const std::vector<std::string> flags = {"-std=c++20", optimize ? "-O2" : "-O0", "-fPIC", "-shared", "-w"};
  // Compiled modules are kept in the kernel cache (runtime/binary_cache.h) by what they are made of: a
  // test suite run twice (Release, then under sanitizers) or a process started again compiles nothing.
  // Sizes of one class print the same source: their executables share the loaded module, found by the
  // text itself (the headers and the compiler's identity are fixed for the process) before any hashing.
  std::string loaded_key;
  for (const std::string& word : compiler) loaded_key += word + "\n";
  loaded_key += flags[1] + "\n";
  loaded_key += source;
  static std::mutex loaded_lock;
  static auto* loaded = new std::map<std::string, std::weak_ptr<HostModule>>();  // lives until exit
  {
    std::lock_guard<std::mutex> lock(loaded_lock);
    auto it = loaded->find(loaded_key);
    if (it != loaded->end()) {
      if (std::shared_ptr<HostModule> module = it->second.lock()) {
        if (origin) *origin = ModuleOrigin::Loaded;
        return module;
      }
    }
  }
  const CacheKey key = host_module_key(compiler, flags, source);
  std::string pattern = (std::filesystem::temp_directory_path() / "seam-host-XXXXXX").string();
  SEAM_CHECK(mkdtemp(pattern.data()) != nullptr, "cannot create a temporary directory for host kernels");
  const std::filesystem::path dir(pattern);
  for (const EmbeddedHeader& header : embedded_headers()) write_file(dir / header.name, header.text);
  write_file(dir / "kernels.cpp", source);
  static std::atomic<uint64_t> modules{0};
  const std::filesystem::path library = dir / ("kernels-" + std::to_string(modules++) + ".so");
  if (!reproducer.empty()) write_file(dir / "reproducer.txt", reproducer);
  BinaryCache& cache = BinaryCache::shared();
  if (std::optional<std::string> cached = cache.lookup(key)) {
    write_file(library, *cached);
    if (origin) *origin = ModuleOrigin::Cache;
  } else {
    std::vector<std::string> command = compiler;
    command.insert(command.end(), flags.begin(), flags.end());
    for (std::string arg :
         {"-I" + dir.string(), std::string("-o"), library.string(), (dir / "kernels.cpp").string()})
      command.push_back(std::move(arg));
    const ProcessResult compiled = run_process(command);
    if (compiled.exit_code != 0) {
      std::string line;
      for (const std::string& word : command) line += (line.empty() ? "" : " ") + word;
      throw Error(detail::concat("host compilation of generated kernels failed (", line, ", exit ",
                                 compiled.exit_code, "):\n", compiled.output, "\nsource kept in ",
                                 dir.string()));
    }
    cache.store(key, read_file(library));
    if (origin) *origin = ModuleOrigin::Compiled;
  }
  // dlopen returns an already loaded object of the same path instead of loading the file: a name no
  // earlier module of this process had, even where a removed temporary directory's name comes back.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  SEAM_CHECK(handle != nullptr, "cannot load host kernels: ", dlerror());
  // The module's kernels read the process's interrupt flag between chunks of work (seam_host.h).
  if (void* slot = dlsym(handle, "seam_host_interrupt"))
    *static_cast<const volatile int**>(slot) = host_interrupt_flag();
  // The loaded object stays mapped; the files are no longer needed.
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  auto module = std::make_shared<HostModule>(handle, library.string());
  std::lock_guard<std::mutex> lock(loaded_lock);
  std::erase_if(*loaded, [](const auto& entry) { return entry.second.expired(); });
  (*loaded)[loaded_key] = module;
  return module;
}

}  // namespace seam
