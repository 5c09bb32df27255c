// FusionBuilder and Fusion of the public API: a thin layer over seam's Builder, parser and printer.
#include "api/api_internal.h"
#include "ir/builder.h"
#include "ir/op.h"
#include "text/parser.h"
#include "text/printer.h"

namespace seam::api {

struct FusionBuilder::Impl {
  explicit Impl(std::string name) : builder(std::move(name)) {}
  seam::Builder builder;
  bool finished = false;

  void check_usable() const {
    if (finished) throw Error("this FusionBuilder has finished its fusion");
  }
  seam::Value value(Value v) const {
    if (v.id < 0 || v.id >= builder.num_nodes())
      throw Error("value %" + std::to_string(v.id) + " is not defined in this builder");
    return seam::Value{v.id};
  }
};

FusionBuilder::FusionBuilder(std::string name) : impl_(std::make_unique<Impl>(std::move(name))) {}
FusionBuilder::~FusionBuilder() = default;
FusionBuilder::FusionBuilder(FusionBuilder&&) noexcept = default;
FusionBuilder& FusionBuilder::operator=(FusionBuilder&&) noexcept = default;

Value FusionBuilder::input(DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                           std::string name) {
  return guarded([&] {
    impl_->check_usable();
    return Value{
        impl_->builder
            .input(seam::Type::tensor(to_seam(dtype), std::move(shape)), std::move(name), std::move(strides))
            .id};
  });
}

Value FusionBuilder::scalar_input(DType dtype, std::string name) {
  return guarded([&] {
    impl_->check_usable();
    return Value{impl_->builder.input(seam::Type::scalar(to_seam(dtype)), std::move(name)).id};
  });
}

Value FusionBuilder::constant(Literal value, DType dtype) {
  return guarded([&] {
    impl_->check_usable();
    return Value{impl_->builder.constant(to_seam(value), to_seam(dtype)).id};
  });
}

Value FusionBuilder::op(std::string_view keyword, const std::vector<Value>& operands,
                        const Attributes& attributes, const std::optional<ValueType>& declared) {
  return guarded([&] {
    impl_->check_usable();
    std::optional<seam::OpKind> kind = seam::op_from_keyword(keyword);
    SEAM_CHECK(kind.has_value(), "unknown op '", keyword, "'");
    std::vector<seam::Value> values;
    values.reserve(operands.size());
    for (Value v : operands) values.push_back(impl_->value(v));
    seam::Attrs attrs;
    for (const auto& [key, attribute] : attributes) attrs.set(key, to_seam(attribute));
    std::optional<seam::Type> type;
    if (declared) type = to_seam(*declared);
    return Value{impl_->builder.add(*kind, std::move(values), std::move(attrs), std::move(type)).id};
  });
}

ValueType FusionBuilder::type(Value value) const {
  return guarded([&] { return from_seam(impl_->builder.type(impl_->value(value))); });
}

Fusion FusionBuilder::finish(const std::vector<std::pair<std::string, Value>>& outputs) {
  return guarded([&] {
    impl_->check_usable();
    std::vector<seam::FusionOutput> outs;
    for (const auto& [name, v] : outputs) outs.push_back({impl_->value(v), name});
    impl_->finished = true;
    return Fusion(std::make_shared<const Fusion::Impl>(Fusion::Impl{impl_->builder.finish(std::move(outs))}));
  });
}

Fusion Fusion::parse(std::string_view text, std::string_view filename) {
  return guarded(
      [&] { return Fusion(std::make_shared<const Impl>(Impl{seam::parse_fusion(text, filename)})); });
}

std::string Fusion::text() const {
  return guarded([&] { return seam::print_fusion(impl_->fusion); });
}

std::string Fusion::name() const { return impl_->fusion.name(); }

std::vector<ValueType> Fusion::input_types() const {
  std::vector<ValueType> types;
  for (seam::Value v : impl_->fusion.inputs()) types.push_back(from_seam(impl_->fusion.type(v)));
  return types;
}

std::vector<ValueType> Fusion::output_types() const {
  std::vector<ValueType> types;
  for (const seam::FusionOutput& out : impl_->fusion.outputs())
    types.push_back(from_seam(impl_->fusion.type(out.value)));
  return types;
}

}  // namespace seam::api
