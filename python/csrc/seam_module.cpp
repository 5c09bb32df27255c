// seam._seam: the public C++ API (include/seam/api.h) as a Python module. It knows nothing of PyTorch:
// tensors cross as (address, dtype name, shape, strides) and the Python package (python/seam) turns
// torch tensors into those. Compiling and running release the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pythread.h>

#include <csignal>

#include "seam/api.h"

namespace py = pybind11;
using namespace seam::api;

namespace {

using PyTensor = std::tuple<uint64_t, std::string, std::vector<int64_t>, std::vector<int64_t>>;

TensorRef to_ref(const PyTensor& t) {
  return {std::get<0>(t), parse_dtype(std::get<1>(t)), std::get<2>(t), std::get<3>(t)};
}

std::vector<TensorRef> to_refs(const std::vector<PyTensor>& ts) {
  std::vector<TensorRef> refs;
  refs.reserve(ts.size());
  for (const PyTensor& t : ts) refs.push_back(to_ref(t));
  return refs;
}

py::tuple type_tuple(const ValueType& t) {
  return py::make_tuple(std::string(dtype_name(t.dtype)), t.is_scalar, t.shape);
}

py::list types_list(const std::vector<ValueType>& types) {
  py::list out;
  for (const ValueType& t : types) out.append(type_tuple(t));
  return out;
}

Literal to_literal(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return Literal::of_bool(v.cast<bool>());
  if (py::isinstance<py::int_>(v)) return Literal::of_int(v.cast<int64_t>());
  if (py::isinstance<py::float_>(v)) return Literal::of_float(v.cast<double>());
  throw Error("a literal must be a bool, int or float, got " + std::string(py::str(v.get_type())));
}

// Attributes arrive as Python values: bool, int, list of int, str, or a tagged pair ("number", v) /
// ("dtype", name) for the kinds a plain value would not say.
Attribute to_attribute(const py::handle& v) {
  if (py::isinstance<py::tuple>(v)) {
    auto pair = v.cast<py::tuple>();
    if (pair.size() == 2) {
      const std::string tag = pair[0].cast<std::string>();
      if (tag == "number") return to_literal(pair[1]);
      if (tag == "dtype") return parse_dtype(pair[1].cast<std::string>());
    }
    throw Error("an attribute tuple must be (\"number\", value) or (\"dtype\", name)");
  }
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v)) return v.cast<int64_t>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::list>(v)) return v.cast<std::vector<int64_t>>();
  throw Error("unsupported attribute value of type " + std::string(py::str(v.get_type())));
}

// Ctrl-C during a host run. Python's own SIGINT handler only sets a flag its interpreter loop reads, and
// a run holds no GIL: while one runs in the main thread, SIGINT asks seam's host kernels to stop instead
// (api::request_interrupt), and the run raises KeyboardInterrupt. Python's handler is back in place before
// anything else runs. Only where Python's handler is its default one (a program that handles SIGINT
// itself keeps its handler), and only in the main thread, where Python runs its signal handlers.
unsigned long main_thread_ident = 0;  // set when the module is imported

class SigintStopsHostRuns {
 public:
  explicit SigintStopsHostRuns(bool host) {
    if (!host || PyThread_get_thread_ident() != main_thread_ident) return;
    struct sigaction current {};
    if (sigaction(SIGINT, nullptr, &current) != 0 || (current.sa_flags & SA_SIGINFO) != 0) return;
    // Kept for the process's life, never released: a static py::object would be released after Python's
    // finalization, without the GIL.
    static PyObject* default_handler =
        py::object(py::module_::import("signal").attr("default_int_handler")).release().ptr();
    if (py::module_::import("signal").attr("getsignal")(SIGINT).ptr() != default_handler) return;
    struct sigaction ours {};
    ours.sa_handler = [](int) { request_interrupt(); };
    sigemptyset(&ours.sa_mask);
    active_ = sigaction(SIGINT, &ours, &previous_) == 0;
  }
  ~SigintStopsHostRuns() { restore(); }
  SigintStopsHostRuns(const SigintStopsHostRuns&) = delete;
  SigintStopsHostRuns& operator=(const SigintStopsHostRuns&) = delete;

  // After a run that returned: a Ctrl-C that came after its kernels still raises KeyboardInterrupt.
  void finish() {
    if (!active_) return;
    restore();
    if (interrupt_requested()) {
      clear_interrupt();
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      throw py::error_already_set();
    }
  }

 private:
  void restore() {
    if (active_) sigaction(SIGINT, &previous_, nullptr);
    active_ = false;
  }
  bool active_ = false;
  struct sigaction previous_ {};
};

// Keeps seam-allocated device memory alive for as long as Python holds a result.
struct DeviceMemory {
  std::shared_ptr<void> owner;
  uint64_t address = 0;
};

// The per-call path of one executable: the input layouts and which inputs are scalars, looked up once,
// so that a call passes only addresses (and scalar values on the host backend).
struct Runner {
  Executable exe;
  std::vector<TensorRef> inputs;
  std::vector<char> is_scalar;
  std::vector<TensorRef> outputs;  // per fusion output: the buffer a Computed one needs
  bool host = true;

  // `device`: the CUDA device every address passed to run is memory of, which the caller (the Python
  // layer, from torch's tensor.device) vouches for; -1 lets seam ask the driver per buffer.
  Runner(Executable e, int device) : exe(std::move(e)), inputs(exe.input_layouts()) {
    for (const ValueType& t : exe.input_types()) is_scalar.push_back(t.is_scalar ? 1 : 0);
    for (const OutputRoute& r : exe.output_routes()) outputs.push_back(r.layout);
    host = exe.backend() == Backend::Host;
    if (!host) {
      for (TensorRef& t : inputs) t.device = device;
      for (TensorRef& t : outputs) t.device = device;
    }
  }

  // `addresses`: per input, a tensor's address (a scalar's too on the CUDA backend, where it is a
  // one-element device buffer); on the host backend a scalar input is its Python value. `buffers`: per
  // fusion output, the address of its buffer (ignored for outputs that are not Computed).
  // `scratch`, `scratch_bytes`: caller device memory for the run's intermediates (Executable::run_into),
  // which a run captured into a CUDA graph needs; 0 lets seam allocate.
  void run(const py::list& addresses, const py::list& buffers, uint64_t stream, uint64_t scratch = 0,
           uint64_t scratch_bytes = 0) {
    std::vector<uint64_t> scalars;
    auto [in, out] = bind(addresses, buffers, scalars);
    SigintStopsHostRuns sigint(host);
    {
      py::gil_scoped_release release;
      exe.run_into(in, out, reinterpret_cast<void*>(stream), Scratch{scratch, scratch_bytes});
    }
    sigint.finish();
  }

  // run, timing every step (Executable::run_profiled); returns when the run has finished.
  RunProfile run_profiled(const py::list& addresses, const py::list& buffers, uint64_t stream) {
    std::vector<uint64_t> scalars;
    auto [in, out] = bind(addresses, buffers, scalars);
    SigintStopsHostRuns sigint(host);
    RunProfile profile;
    {
      py::gil_scoped_release release;
      profile = exe.run_profiled(in, out, reinterpret_cast<void*>(stream));
    }
    sigint.finish();
    return profile;
  }

 private:
  // The caller's TensorRefs with this call's addresses; a host scalar input points into `scalars`.
  std::pair<std::vector<TensorRef>, std::vector<TensorRef>> bind(const py::list& addresses,
                                                                 const py::list& buffers,
                                                                 std::vector<uint64_t>& scalars) {
    if (addresses.size() != inputs.size())
      throw Error("the executable takes " + std::to_string(inputs.size()) + " inputs, got " +
                  std::to_string(addresses.size()));
    if (buffers.size() != outputs.size())
      throw Error("the executable has " + std::to_string(outputs.size()) + " outputs, got " +
                  std::to_string(buffers.size()) + " buffers");
    std::vector<TensorRef> in = inputs, out = outputs;
    scalars.assign(in.size(), 0);  // 8 bytes hold any dtype's element
    for (size_t i = 0; i < in.size(); ++i) {
      py::handle a = addresses[i];
      if (host && is_scalar[i]) {
        encode_scalar(to_literal(a), in[i].dtype, &scalars[i]);
        in[i].data = reinterpret_cast<uint64_t>(&scalars[i]);
      } else {
        in[i].data = a.cast<uint64_t>();
      }
    }
    for (size_t o = 0; o < out.size(); ++o) {
      py::handle b = buffers[o];
      out[o].data = b.is_none() ? 0 : b.cast<uint64_t>();
    }
    return {std::move(in), std::move(out)};
  }
};

// seam's errors as Python exceptions: SeamError, SeamInternalError, KeyboardInterrupt for a stopped run.
void bind_errors(py::module_& m) {
  static py::exception<Error> seam_error(m, "SeamError", PyExc_RuntimeError);
  static py::exception<InternalError> internal_error(m, "SeamInternalError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Interrupted& e) {  // a host run stopped by Ctrl-C (SigintStopsHostRuns)
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const Error& e) {
      seam_error(e.what());
    } catch (const InternalError& e) {
      internal_error(e.what());
    }
  });
}

// The IR as Python sees it: a parsed or built fusion and its types.
void bind_fusion(py::module_& m) {
  py::class_<Fusion>(m, "Fusion")
      .def_static(
          "parse", [](const std::string& text) { return Fusion::parse(text); }, py::arg("text"))
      .def("text", &Fusion::text)
      .def("name", &Fusion::name)
      .def("input_types", [](const Fusion& f) { return types_list(f.input_types()); })
      .def("output_types", [](const Fusion& f) { return types_list(f.output_types()); });

  py::class_<FusionBuilder>(m, "FusionBuilder")
      .def(py::init<std::string>(), py::arg("name") = "fusion")
      .def(
          "input",
          [](FusionBuilder& b, const std::string& dtype, std::vector<int64_t> shape,
             std::vector<int64_t> strides, std::string name) {
            return b.input(parse_dtype(dtype), std::move(shape), std::move(strides), std::move(name)).id;
          },
          py::arg("dtype"), py::arg("shape"), py::arg("strides"), py::arg("name") = "")
      .def(
          "scalar_input",
          [](FusionBuilder& b, const std::string& dtype, std::string name) {
            return b.scalar_input(parse_dtype(dtype), std::move(name)).id;
          },
          py::arg("dtype"), py::arg("name") = "")
      .def(
          "constant",
          [](FusionBuilder& b, const py::object& value, const std::string& dtype) {
            return b.constant(to_literal(value), parse_dtype(dtype)).id;
          },
          py::arg("value"), py::arg("dtype"))
      .def(
          "op",
          [](FusionBuilder& b, const std::string& keyword, const std::vector<int>& operands,
             const py::list& attrs, const py::object& declared) {
            std::vector<Value> values;
            for (int id : operands) values.push_back(Value{id});
            Attributes attributes;
            for (const py::handle& item : attrs) {
              auto pair = item.cast<py::tuple>();
              attributes.emplace_back(pair[0].cast<std::string>(), to_attribute(pair[1]));
            }
            std::optional<ValueType> type;
            if (!declared.is_none()) {
              auto t = declared.cast<py::tuple>();
              type =
                  ValueType{parse_dtype(t[0].cast<std::string>()), false, t[1].cast<std::vector<int64_t>>()};
            }
            return b.op(keyword, values, attributes, type).id;
          },
          py::arg("keyword"), py::arg("operands"), py::arg("attrs") = py::list(),
          py::arg("declared") = py::none())
      .def("type", [](const FusionBuilder& b, int v) { return type_tuple(b.type(Value{v})); })
      .def("finish", [](FusionBuilder& b, const std::vector<std::pair<std::string, int>>& outputs) {
        std::vector<std::pair<std::string, Value>> outs;
        for (const auto& [name, id] : outputs) outs.emplace_back(name, Value{id});
        return b.finish(outs);
      });
}

// What a run returns: runners, device memory, profiles.
void bind_runs(py::module_& m) {
  py::class_<DeviceMemory>(m, "DeviceMemory").def_readonly("address", &DeviceMemory::address);

  py::class_<Runner>(m, "Runner")
      .def("run", &Runner::run, py::arg("addresses"), py::arg("buffers"), py::arg("stream") = 0,
           py::arg("scratch") = 0, py::arg("scratch_bytes") = 0)
      .def("run_profiled", &Runner::run_profiled, py::arg("addresses"), py::arg("buffers"),
           py::arg("stream") = 0);

  py::class_<StepProfile>(m, "StepProfile")
      .def_readonly("name", &StepProfile::name)
      .def_readonly("scheduler", &StepProfile::scheduler)
      .def_readonly("segment", &StepProfile::segment)
      .def_readonly("launched", &StepProfile::launched)
      .def_readonly("time_ms", &StepProfile::time_ms)
      .def_readonly("event_time_ms", &StepProfile::event_time_ms)
      .def_readonly("gpu_kernels", &StepProfile::gpu_kernels)
      .def_readonly("blocks", &StepProfile::blocks)
      .def_readonly("block", &StepProfile::block)
      .def_readonly("registers", &StepProfile::registers)
      .def_readonly("input_bytes", &StepProfile::input_bytes)
      .def_readonly("output_bytes", &StepProfile::output_bytes);
  py::class_<RunProfile>(m, "RunProfile")
      .def_readonly("timing", &RunProfile::timing)
      .def_readonly("timing_note", &RunProfile::timing_note)
      .def_readonly("segments", &RunProfile::segments)
      .def_readonly("steps", &RunProfile::steps)
      .def_readonly("host_time_ms", &RunProfile::host_time_ms)
      .def_readonly("kernel_time_ms", &RunProfile::kernel_time_ms)
      .def_readonly("event_time_ms", &RunProfile::event_time_ms)
      .def_readonly("input_bytes", &RunProfile::input_bytes)
      .def_readonly("output_bytes", &RunProfile::output_bytes)
      .def_readonly("peak_bandwidth_gbs", &RunProfile::peak_bandwidth_gbs);
}

void bind_executable(py::module_& m) {
  py::class_<Executable>(m, "Executable")
      .def(
          "runner", [](const Executable& e, int device) { return Runner(e, device); }, py::arg("device") = -1)
      .def("output_routes",
           [](const Executable& e) {
             py::list out;
             for (const OutputRoute& r : e.output_routes()) {
               const char* kind = r.kind == OutputRoute::Kind::Computed ? "computed"
                                  : r.kind == OutputRoute::Kind::View   ? "view"
                                                                        : "same";
               out.append(py::make_tuple(kind, std::string(dtype_name(r.layout.dtype)), r.layout.shape,
                                         r.layout.strides, r.layout.data, r.input, r.output));
             }
             return out;
           })
      .def("input_types", [](const Executable& e) { return types_list(e.input_types()); })
      .def("output_types", [](const Executable& e) { return types_list(e.output_types()); })
      .def(
          "run_host",
          [](const Executable& e, const std::vector<PyTensor>& inputs, const std::vector<PyTensor>& outputs) {
            std::vector<TensorRef> in = to_refs(inputs), out = to_refs(outputs);
            SigintStopsHostRuns sigint(true);
            {
              py::gil_scoped_release release;
              e.run_host(in, out);
            }
            sigint.finish();
          },
          py::arg("inputs"), py::arg("outputs"))
      .def(
          "run_reference",
          [](const Executable& e, const std::vector<PyTensor>& inputs, const std::vector<PyTensor>& outputs) {
            std::vector<TensorRef> in = to_refs(inputs), out = to_refs(outputs);
            py::gil_scoped_release release;
            e.run_reference(in, out);
          },
          py::arg("inputs"), py::arg("outputs"))
      .def(
          "run_device",
          [](const Executable& e, const std::vector<PyTensor>& inputs, uint64_t stream) {
            std::vector<TensorRef> in = to_refs(inputs);
            std::vector<DeviceResult> results;
            {
              py::gil_scoped_release release;
              results = e.run_device(in, reinterpret_cast<void*>(stream));
            }
            py::list out;
            for (DeviceResult& r : results) {
              py::object memory = py::none();
              if (r.owner) memory = py::cast(DeviceMemory{std::move(r.owner), r.tensor.data});
              out.append(py::make_tuple(r.tensor.data, std::string(dtype_name(r.tensor.dtype)),
                                        r.tensor.shape, r.tensor.strides, r.input, memory));
            }
            return out;
          },
          py::arg("inputs"), py::arg("stream"))
      .def("compile_times", &Executable::compile_times)
      .def("module_origin", &Executable::module_origin)
      .def("reused_stages", &Executable::reused_stages)
      .def("optimized_fusion", &Executable::optimized_fusion)
      .def("segmentation", &Executable::segmentation)
      .def("num_kernels", &Executable::num_kernels)
      .def("scratch_bytes", &Executable::scratch_bytes)
      .def("cuda_source", &Executable::cuda_source, py::call_guard<py::gil_scoped_release>())
      .def("sources", &Executable::sources)
      .def("backend", [](const Executable& e) { return e.backend() == Backend::Cuda ? "cuda" : "host"; });
}

void bind_functions(py::module_& m) {
  m.def(
      "compile",
      [](const Fusion& fusion, const std::string& backend) {
        CompileOptions options;
        if (backend == "cuda")
          options.backend = Backend::Cuda;
        else if (backend != "host")
          throw Error("backend must be 'host' or 'cuda', got '" + backend + "'");
        py::gil_scoped_release release;
        return Executable::compile(fusion, options);
      },
      py::arg("fusion"), py::arg("backend") = "host");
  m.def("request_interrupt", &request_interrupt,
        "Asks the host runs in progress (or the next one) to stop: they raise KeyboardInterrupt");
  m.def("interrupt_requested", &interrupt_requested);
  m.def("cuda_available", &cuda_available, py::call_guard<py::gil_scoped_release>());
  m.def("cuda_unavailable_reason", &cuda_unavailable_reason, py::call_guard<py::gil_scoped_release>());
  m.def("cuda_device_ordinal", &cuda_device_ordinal);
}

}  // namespace

PYBIND11_MODULE(_seam, m) {
  m.doc() = "seam's public C++ API (include/seam/api.h)";
  main_thread_ident =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  bind_errors(m);
  bind_fusion(m);
  bind_runs(m);
  bind_executable(m);
  bind_functions(m);
}
