// A fusion's inputs and outputs as .npy files in a directory, one file per tensor named after it
// (DIR/NAME.npy): what `seam run`, `seam bench` and the benchmark programs read and write, so that a
// script (bench/*_vs_torch.py) can hand the same inputs to seam and to PyTorch and compare the outputs.
#pragma once

#include <string>
#include <vector>

#include "ir/fusion.h"
#include "tensor/host_tensor.h"

namespace seam {

// The name of input i (its `name` attribute, else "input<i>") and of output i (its return name, else
// "output<i>"): the file names below.
std::string fusion_input_name(const Fusion& fusion, size_t i);
std::string fusion_output_name(const Fusion& fusion, size_t i);

// Every input from DIR/NAME.npy in the fusion's dtype and shape, laid out with the declared strides;
// throws seam::Error naming the file for a missing, unreadable or mismatching one.
std::vector<HostTensor> read_inputs_from_dir(const Fusion& fusion, const std::string& dir);

// Makes `dir` usable for outputs before anything runs (creates it when missing); `option` names the
// command-line option in the message ("--out").
void prepare_output_dir(const std::string& dir, const std::string& option);

// Writes output i as DIR/NAME.npy, all outputs or none: each goes to a hidden temporary file first,
// renamed into place once every file is written.
void write_outputs_to_dir(const Fusion& fusion, const std::vector<HostTensor>& outputs,
                          const std::string& dir);

}  // namespace seam
