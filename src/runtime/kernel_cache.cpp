#include "runtime/kernel_cache.h"

namespace seam {
namespace {

void put_field(std::string& out, std::string_view field) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((field.size() >> (8 * i)) & 0xff));
  out.append(field);
}

// Reads length-prefixed fields written by put_field; fails (false) on any overrun.
class FieldReader {
 public:
  explicit FieldReader(std::string_view bytes) : bytes_(bytes) {}
  bool read(std::string& field) {
    if (bytes_.size() < 8) return false;
    uint64_t length = 0;
    for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<uint8_t>(bytes_[i]);
    bytes_.remove_prefix(8);
    if (length > bytes_.size()) return false;
    field.assign(bytes_.substr(0, length));
    bytes_.remove_prefix(length);
    return true;
  }
  bool done() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

constexpr std::string_view kPayloadTag = "seam-compiled-kernel-1";

}  // namespace

CacheKey compile_cache_key(const CompileRequest& request) {
  return compile_cache_key(request, nvrtc_build_version());
}

CacheKey compile_cache_key(const CompileRequest& request, const std::string& version) {
  Sha256 sha;
  sha.update_field("seam-compile-key-1");
  sha.update_field(version);
  sha.update_field(request.arch);
  sha.update_field(request.program_name);  // appears in the binary's debug info with -lineinfo
  const std::vector<std::string> options = nvrtc_options(request);
  sha.update_u64(options.size());
  for (const std::string& option : options) sha.update_field(option);
  sha.update_u64(request.headers.size());
  for (const auto& [name, content] : request.headers) sha.update_field(name).update_field(content);
  sha.update_u64(request.kernel_names.size());
  for (const std::string& name : request.kernel_names) sha.update_field(name);
  sha.update_field(request.source);
  return CacheKey{sha.finish()};
}

std::string serialize_compiled_kernel(const CompiledKernel& kernel) {
  std::string out;
  put_field(out, kPayloadTag);
  put_field(out, kernel.arch);
  put_field(out, kernel.is_cubin ? "cubin" : "ptx");
  put_field(out, std::to_string(kernel.symbols.size()));
  for (const auto& [name, symbol] : kernel.symbols) {
    put_field(out, name);
    put_field(out, symbol);
  }
  put_field(out, kernel.log);
  put_field(out, kernel.binary);
  return out;
}

std::optional<CompiledKernel> deserialize_compiled_kernel(std::string_view bytes) {
  FieldReader reader(bytes);
  std::string tag, kind, count_text;
  CompiledKernel kernel;
  if (!reader.read(tag) || tag != kPayloadTag) return std::nullopt;
  if (!reader.read(kernel.arch) || !reader.read(kind) || !reader.read(count_text)) return std::nullopt;
  if (kind != "cubin" && kind != "ptx") return std::nullopt;
  kernel.is_cubin = kind == "cubin";
  size_t count = 0;
  try {
    count = std::stoul(count_text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  for (size_t i = 0; i < count; ++i) {
    std::string name, symbol;
    if (!reader.read(name) || !reader.read(symbol)) return std::nullopt;
    kernel.symbols.emplace_back(std::move(name), std::move(symbol));
  }
  if (!reader.read(kernel.log) || !reader.read(kernel.binary) || !reader.done()) return std::nullopt;
  return kernel;
}

CompiledKernel compile_cuda_cached(const CompileRequest& request, BinaryCache& cache, bool* cache_hit) {
  auto lookup = [&](const CacheKey& key) -> std::optional<CompiledKernel> {
    if (std::optional<std::string> payload = cache.lookup(key)) return deserialize_compiled_kernel(*payload);
    return std::nullopt;
  };
  const std::string built_with = nvrtc_build_version();
  CacheKey key = compile_cache_key(request, built_with);
  std::optional<CompiledKernel> kernel = lookup(key);
  if (!kernel) {
    const std::string running = nvrtc_version();  // loads NVRTC: it compiles on a miss anyway
    if (running != built_with) {
      key = compile_cache_key(request, running);
      kernel = lookup(key);
    }
  }
  if (kernel) {
    if (cache_hit != nullptr) *cache_hit = true;
    return *kernel;
  }
  if (cache_hit != nullptr) *cache_hit = false;
  CompiledKernel compiled = compile_cuda(request);
  cache.store(key, serialize_compiled_kernel(compiled));
  return compiled;
}

}  // namespace seam
