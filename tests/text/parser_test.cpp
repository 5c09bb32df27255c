// The parser on hand-written text: structure, canonical printing, literal kinds and error locations.
#include "text/parser.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/error.h"
#include "text/printer.h"

namespace seam {
namespace {

// Parses `text` expecting a seam::Error and returns its message.
std::string parse_error(std::string_view text) {
  try {
    parse_fusion(text, "t.seam");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

constexpr const char* kGoldenSource = R"(# a comment before the header
fusion   golden{%a=input{strides=[3,1],name="a"}:f16[2,3]  # attributes out of order
  %b = const {value=2} : f16
  %sum  =  add %a,%b : f16[2,3]
  %12 = sum %sum {keepdim=true, axes=[1]}
      : f16[2,1]
  return total=%12, %sum
}
)";

TEST(Parser, GoldenStructure) {
  Fusion f = parse_fusion(kGoldenSource);
  EXPECT_EQ(f.name(), "golden");
  ASSERT_EQ(f.num_nodes(), 4);
  const Node& input = f.node(Value{0});
  EXPECT_EQ(input.op, OpKind::Input);
  EXPECT_EQ(input.attrs.get_string("name"), "a");
  EXPECT_EQ(input.attrs.get_ints("strides"), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(input.type, Type::tensor(DType::Float16, {2, 3}));
  const Node& constant = f.node(Value{1});
  EXPECT_EQ(constant.attrs.get_number("value").kind(), Number::Kind::Int);
  EXPECT_EQ(constant.attrs.get_number("value").as_int(), 2);
  EXPECT_EQ(constant.type, Type::scalar(DType::Float16));
  EXPECT_EQ(f.node(Value{2}).op, OpKind::Add);
  EXPECT_EQ(f.node(Value{2}).operands, (std::vector<Value>{Value{0}, Value{1}}));
  const Node& sum = f.node(Value{3});
  EXPECT_EQ(sum.operands, std::vector<Value>{Value{2}});
  EXPECT_TRUE(sum.attrs.get_bool("keepdim"));
  EXPECT_EQ(sum.type, Type::tensor(DType::Float16, {2, 1}));
  ASSERT_EQ(f.outputs().size(), 2u);
  EXPECT_EQ(f.outputs()[0].name, "total");
  EXPECT_EQ(f.outputs()[0].value, Value{3});
  EXPECT_EQ(f.outputs()[1].name, "");
  EXPECT_EQ(f.outputs()[1].value, Value{2});
}

TEST(Parser, GoldenCanonicalForm) {
  EXPECT_EQ(print_fusion(parse_fusion(kGoldenSource)), R"(fusion golden {
  %0 = input {name="a", strides=[3,1]} : f16[2,3]
  %1 = const {value=2} : f16
  %2 = add %0, %1 : f16[2,3]
  %3 = sum %2 {axes=[1], keepdim=true} : f16[2,1]
  return total=%3, %2
}
)");
}

TEST(Parser, AttributeKindFollowsTheSchema) {
  Fusion f = parse_fusion(R"(fusion kinds {
    %x = input : i32[2,3]
    %c = cat %x, %x {axis=1} : i32[2,6]
    %v = const {value=2} : f32
    %w = const {value=2.0} : f32
    %t = const {value=true} : i32
    %n = full {value=nan} : f64[1]
    %i = full {value=inf} : f64[1]
    %d = cast %x {dtype=bf16} : bf16[2,3]
    return %c, %v, %w, %t, %n, %i, %d
  })");
  EXPECT_EQ(attr_value_kind(*f.node(Value{1}).attrs.find("axis")), AttrKind::Int);
  EXPECT_EQ(f.node(Value{2}).attrs.get_number("value"), Number::of_int(2));
  EXPECT_EQ(f.node(Value{3}).attrs.get_number("value"), Number::of_float(2.0));
  EXPECT_EQ(f.node(Value{4}).attrs.get_number("value"), Number::of_bool(true));
  EXPECT_TRUE(std::isnan(f.node(Value{5}).attrs.get_number("value").as_double()));
  EXPECT_EQ(f.node(Value{6}).attrs.get_number("value").as_double(), INFINITY);
  EXPECT_EQ(f.node(Value{7}).attrs.get_dtype("dtype"), DType::BFloat16);
}

TEST(Parser, StringEscapesAreDecoded) {
  // Input names must be identifiers, so the decoded string shows up in the error.
  std::string message = parse_error(R"(fusion f { %e = input {name="q\"b\\s\nn"} : f32 return %e })");
  EXPECT_NE(message.find("input name \"q\"b\\s\nn\" is not an identifier"), std::string::npos) << message;
}

TEST(Parser, InputNameMustBeAnIdentifier) {
  EXPECT_NE(parse_error("fusion f {\n  %e = input {name=\"a b\"} : f32\n  return %e\n}")
                .find("t.seam:2:20: input name \"a b\" is not an identifier"),
            std::string::npos);
}

TEST(Parser, ValueNamesMayBeNumbersOrIdentifiers) {
  Fusion f = parse_fusion("fusion f { %7 = input : f32 %a.b = neg %7 : f32 %0 = abs %a.b : f32 return %0 }");
  EXPECT_EQ(print_fusion(f),
            "fusion f {\n  %0 = input : f32\n  %1 = neg %0 : f32\n  %2 = abs %1 : f32\n"
            "  return %2\n}\n");
}

TEST(Parser, WindowsLineEndingsAndTabs) {
  Fusion f = parse_fusion("fusion f {\r\n\t%x = input : f32[2]\r\n\treturn %x\r\n}\r\n");
  EXPECT_EQ(f.num_nodes(), 1);
}

TEST(Parser, ErrorsNameFileLineAndColumn) {
  std::string message = parse_error("fusion f {\n  %x = input : f32[2]\n  %y = frobnicate %x : f32[2]\n}");
  EXPECT_EQ(message, "t.seam:3:8: unknown op 'frobnicate'");
  message = parse_error("fusion f {\n  %x = input {name=\"x\"} {} : f32[2]\n  return %x\n}");
  EXPECT_EQ(message, "t.seam:2:25: expected ':' before the result type, found '{'");
}

TEST(Parser, BuilderErrorsUseTheTextsValueName) {
  std::string message = parse_error(
      "fusion f {\n  %x = input : f32[2,3]\n  %q = permute %x {perm=[0,0]} : f32[2,3]\n  return %q\n}");
  EXPECT_NE(message.find("t.seam:3:8: %q = permute: [0,0] is not a permutation"), std::string::npos)
      << message;
}

// Axes count from the end as in PyTorch; the printer writes them from the start.
TEST(Parser, NegativeAxesCountFromTheEnd) {
  Fusion f = parse_fusion(R"(fusion f {
  %x = input : f32[2,3,4]
  %s = sum %x {axes=[-1], keepdim=true} : f32[2,3,1]
  %p = permute %x {perm=[-1,0,1]} : f32[4,2,3]
  %q = squeeze %s {axes=[-1]} : f32[2,3]
  %b = broadcast %q {axes=[-1]} : f32[2,3,1]
  %c = cat %x, %x {axis=-2} : f32[2,6,4]
  return %s, %p, %b, %c
}
)");
  const std::string printed = print_fusion(f);
  EXPECT_NE(printed.find("sum %0 {axes=[2], keepdim=true}"), std::string::npos) << printed;
  EXPECT_NE(printed.find("perm=[2,0,1]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("squeeze %1 {axes=[2]}"), std::string::npos) << printed;
  EXPECT_NE(printed.find("broadcast %3 {axes=[2]}"), std::string::npos) << printed;
  EXPECT_NE(printed.find("{axis=1}"), std::string::npos) << printed;
  // Out of range either way is an error that shows the axis as written.
  EXPECT_NE(parse_error("fusion f {\n  %x = input : f32[2,3]\n  %s = sum %x {axes=[-3], keepdim=false} : "
                        "f32[2]\n  return %s\n}\n")
                .find("-3"),
            std::string::npos);
}

// A literal where an operand goes says how to write it.
TEST(Parser, LiteralOperandsPointAtConst) {
  for (const char* statement :
       {"%y = add %x, 1.0 : f32[2]", "%y = add 2, %x : f32[2]", "%y = mul %x, inf : f32[2]"}) {
    const std::string message =
        parse_error(std::string("fusion f {\n  %x = input : f32[2]\n  ") + statement + "\n  return %y\n}\n");
    EXPECT_NE(message.find("operands are values, not literals"), std::string::npos) << message;
    EXPECT_NE(message.find("= const {value="), std::string::npos) << message;
  }
}

TEST(Parser, HostileInputsFailCleanly) {
  // Very long and very deep-looking inputs: no recursion, clean errors.
  std::string deep = "fusion f {\n  %x = input : f32" + std::string(100000, '[') + "\n}";
  EXPECT_NE(parse_error(deep).find("t.seam:2:20: expected an integer"), std::string::npos);
  std::string long_name = "fusion " + std::string(200000, 'a') + " {\n  %x = input : f32\n  return %x\n}";
  EXPECT_EQ(parse_fusion(long_name).name().size(), 200000u);
  std::string many = "fusion f {\n  %0 = input : f32[1]\n";
  for (int i = 1; i < 20000; ++i)
    many += "  %" + std::to_string(i) + " = neg %" + std::to_string(i - 1) + " : f32[1]\n";
  many += "  return %19999\n}\n";
  EXPECT_EQ(parse_fusion(many).num_nodes(), 20000);
  EXPECT_NE(parse_error(std::string("fusion f {\0}", 12)).find("t.seam:1:11: unexpected NUL byte 0x00"),
            std::string::npos);
  EXPECT_NE(parse_error("fusion f\xc3\xa9 {}").find("t.seam:1:9: unexpected non-ASCII byte 0xc3"),
            std::string::npos);
}

TEST(Parser, LimitsProtectShapeArithmetic) {
  EXPECT_NE(parse_error("fusion f {\n  %x = input : f32[1099511627776,1099511627776]\n  return %x\n}")
                .find("2:16: type f32[1099511627776,1099511627776] has too many elements"),
            std::string::npos);
  EXPECT_NE(parse_error("fusion f {\n  %x = input : f32[2]\n  %y = pad %x {low=[9223372036854775807], "
                        "high=[0], value=0} : f32[2]\n  return %y\n}")
                .find("3:21: integer '9223372036854775807' is out of range"),
            std::string::npos);
}

TEST(Parser, FileErrors) {
  EXPECT_THROW(parse_fusion_file("/nonexistent/dir/x.seam"), Error);
  EXPECT_THROW(parse_fusion_file("/"), Error);
}

}  // namespace
}  // namespace seam
