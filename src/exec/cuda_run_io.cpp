#include "exec/cuda_run_io.h"

#include <algorithm>

#include "exec/device_scratch.h"
#include "runtime/cuda_driver.h"

namespace seam {

Bindings upload_inputs(const Fusion& fusion, const std::vector<HostTensor>& inputs,
                       const std::function<std::string(size_t)>& label) {
  const Driver& cu = driver();
  Bindings bindings(fusion.num_nodes());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& storage = inputs[i].storage();
    auto buffer = std::make_shared<DeviceBuffer>(device_allocator(), std::max<size_t>(storage.size(), 1));
    if (!storage.empty())
      check_cuda(cu.memcpy_htod(buffer->get(), storage.data(), storage.size()), "cuMemcpyHtoD", label(i));
    bindings.own(fusion.inputs()[i], std::move(buffer));
  }
  return bindings;
}

Bindings bind_caller_buffers(const Fusion& fusion, const std::vector<OutputRoute>& routes,
                             const std::vector<DeviceTensor>& inputs,
                             const std::vector<DeviceTensor>& outputs) {
  Bindings bindings(fusion.num_nodes());
  for (size_t i = 0; i < inputs.size(); ++i) bindings.bind(fusion.inputs()[i], inputs[i].data);
  for (size_t o = 0; o < outputs.size(); ++o)
    if (routes[o].kind == OutputRoute::Kind::Computed)
      bindings.bind(fusion.outputs()[o].value, outputs[o].data);
  return bindings;
}

std::vector<HostTensor> download_outputs(const Fusion& f, const std::vector<OutputRoute>& routes,
                                         const Bindings& bindings, const std::vector<HostTensor>& inputs,
                                         const std::function<HostTensor(Value)>& view) {
  const Driver& cu = driver();
  std::vector<HostTensor> results;
  for (size_t o = 0; o < routes.size(); ++o) {
    const OutputRoute& route = routes[o];
    const Value value = f.outputs()[o].value;
    if (route.kind == OutputRoute::Kind::Same) {
      results.push_back(results[route.output]);
      continue;
    }
    if (route.kind == OutputRoute::Kind::View && f.node(value).op == OpKind::Input) {  // returned unchanged
      results.push_back(inputs[route.input].contiguous());
      continue;
    }
    if (route.kind == OutputRoute::Kind::View) {
      results.push_back(view(value));
      continue;
    }
    const Type& t = f.type(value);
    HostTensor host = HostTensor::zeros(t.dtype, t.shape);
    if (!host.storage().empty())
      check_cuda(cu.memcpy_dtoh(host.storage().data(), bindings.address(value), host.storage().size()),
                 "cuMemcpyDtoH", "fusion output");
    results.push_back(std::move(host));
  }
  return results;
}

std::vector<DeviceTensor> device_outputs(const Fusion& f, const std::vector<OutputRoute>& routes,
                                         const Bindings& bindings, const std::vector<DeviceTensor>& inputs) {
  std::vector<DeviceTensor> outputs;
  outputs.reserve(routes.size());
  for (size_t o = 0; o < routes.size(); ++o) {
    const OutputRoute& route = routes[o];
    const Value value = f.outputs()[o].value;
    const Type& t = f.type(value);
    switch (route.kind) {
      case OutputRoute::Kind::Same: outputs.push_back(outputs[route.output]); break;
      case OutputRoute::Kind::Computed:
        outputs.push_back(
            {bindings.address(value), t.dtype, t.shape, contiguous_strides(t.shape), bindings.owned(value)});
        break;
      case OutputRoute::Kind::View: {  // a strided alias of the caller's memory, no launch
        const DeviceTensor& base = inputs[route.input];
        outputs.push_back({base.data + static_cast<DevicePtr>(route.layout.offset * dtype_size(t.dtype)),
                           t.dtype, route.layout.shape, route.layout.strides, base.owner});
        break;
      }
    }
  }
  return outputs;
}

}  // namespace seam
