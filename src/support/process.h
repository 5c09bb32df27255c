// Runs an external program (Graphviz, the host compiler) from an argument vector, never through a shell:
// a path or setting with quotes, spaces or `$(...)` is passed as one argument and never interpreted.
#pragma once

#include <string>
#include <vector>

namespace seam {

struct ProcessResult {
  int exit_code = -1;  // the program's exit status; -1 when a signal ended it
  std::string output;  // what it wrote to stdout and stderr, interleaved
};

// Starts argv[0] (looked up on PATH when it has no '/') with argv[1..] as its arguments, waits for it and
// returns its exit status and output. Throws seam::Error naming the program when it cannot be started
// (not installed, not executable). stdin is /dev/null.
ProcessResult run_process(const std::vector<std::string>& argv);

// Splits a setting such as SEAM_HOST_CXX="ccache g++" into words at spaces and tabs (no quoting rules:
// a setting that needs a space inside one word is not supported, and nothing is expanded).
std::vector<std::string> split_words(const std::string& text);

}  // namespace seam
