// print and verify, and the file helpers shared by the commands.
#include <fstream>
#include <iostream>
#include <iterator>

#include "commands.h"
#include "ir/verify.h"
#include "support/error.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam::tool {

Fusion load_fusion(const std::string& path) {
  if (path != "-") return parse_fusion_file(path);
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  return parse_fusion(text, "<stdin>");
}

void write_text(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  SEAM_CHECK(out.good(), "cannot write '", path, "'");
  out << text;
  SEAM_CHECK(out.good(), "failed writing '", path, "'");
}

int cmd_print(Args& args) {
  args.reject_unused();
  Fusion fusion = load_fusion(args.positional_at(0, "FILE"));
  std::cout << print_fusion(fusion);
  return kExitOk;
}

int cmd_verify(Args& args) {
  args.reject_unused();
  const std::string path = args.positional_at(0, "FILE");
  Fusion fusion = load_fusion(path);
  verify(fusion);
  std::cout << path << ": ok: fusion " << fusion.name() << ", " << fusion.num_nodes() << " values, "
            << fusion.inputs().size() << " inputs, " << fusion.outputs().size() << " outputs\n";
  return kExitOk;
}

}  // namespace seam::tool
