# lit configuration of seam's golden tests: each .seam file here holds a fusion (or broken text) with
# `RUN:` lines that run a stage of the tool on it and `CHECK:` lines that FileCheck matches against the
# output. Run by ctest (tests/CMakeLists.txt) as:
#   lit.py tests/golden --param seam=build/tools/seam --param llvm_bin=/usr/lib/llvm-15/bin
import os

import lit.formats

config.name = "seam-golden"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".seam"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["kernels"]

seam = lit_config.params.get("seam")
if not seam:
    lit_config.fatal("pass --param seam=PATH_TO_THE_SEAM_TOOL")
config.substitutions.append(("%seam", seam))
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-15/bin")
config.environment["PATH"] = os.pathsep.join([llvm_bin, os.environ.get("PATH", "")])
