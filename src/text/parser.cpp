#include "text/parser.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "ir/builder.h"
#include "ir/limits.h"
#include "ir/verify.h"
#include "support/error.h"
#include "text/lexer.h"

namespace seam {
namespace {

std::string_view kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::End: return "end of input";
    case TokenKind::Word: return "a name";
    case TokenKind::ValueName: return "a value name";
    case TokenKind::Number: return "a number";
    case TokenKind::String: return "a string";
    case TokenKind::LeftBrace: return "'{'";
    case TokenKind::RightBrace: return "'}'";
    case TokenKind::LeftBracket: return "'['";
    case TokenKind::RightBracket: return "']'";
    case TokenKind::Comma: return "','";
    case TokenKind::Equals: return "'='";
    case TokenKind::Colon: return "':'";
  }
  return "a token";
}

// Where a literal is being read, for error messages; formatted only when an error is raised.
struct LiteralContext {
  std::string_view key;  // attribute key; empty for an extent of the result type
  std::string_view op;
};

std::ostream& operator<<(std::ostream& out, const LiteralContext& context) {
  if (context.key.empty()) return out << "as an extent of the result type";
  return out << "for attribute '" << context.key << "' of op '" << context.op << "'";
}

struct DefinedValue {
  Value value;
  SourceLocation location;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view filename) : lexer_(text, filename) {
    if (text.size() > TextLimits::kMaxBytes)
      lexer_.fail({1, 1}, detail::concat("text of ", text.size(), " bytes exceeds the limit of ",
                                         TextLimits::kMaxBytes, " bytes"));
    values_.reserve(text.size() / 32 + 16);
    advance();
  }

  Fusion parse();

 private:
  void advance() { token_ = lexer_.next(); }
  bool at_word(std::string_view word) const { return token_.kind == TokenKind::Word && token_.text == word; }

  template <typename... Args>
  [[noreturn]] void fail(SourceLocation at, const Args&... args) const {
    lexer_.fail(at, detail::concat(args...));
  }
  // Consumes a token of `kind` or fails with "expected KIND CONTEXT, found TOKEN".
  Token expect(TokenKind kind, std::string_view context) {
    if (token_.kind != kind)
      fail(token_.location, "expected ", kind_name(kind), " ", context, ", found ", describe_token(token_));
    Token taken = token_;
    advance();
    return taken;
  }

  void parse_statement(Builder& builder);
  void parse_attrs(const OpInfo& info, Attrs& attrs);
  AttrValue parse_attr_value(const OpInfo& info, const AttrSpec& spec, const Token& key);
  int64_t parse_int(const LiteralContext& what);
  std::vector<int64_t> parse_int_list(const LiteralContext& what);
  Number parse_number(const LiteralContext& what);
  Type parse_type();
  Value lookup(const Token& name) const;
  std::vector<FusionOutput> parse_return(int64_t num_nodes);

  Lexer lexer_;
  Token token_;
  std::unordered_map<std::string_view, DefinedValue> values_;
  std::unordered_set<std::string> input_names_;
};

Fusion Parser::parse() {
  if (!at_word("fusion"))
    fail(token_.location, "expected 'fusion' at the start of the text, found ", describe_token(token_));
  advance();
  Token name = expect(TokenKind::Word, "as the fusion name after 'fusion'");
  expect(TokenKind::LeftBrace, "after the fusion name");
  Builder builder{std::string(name.text)};
  while (true) {
    if (token_.kind == TokenKind::ValueName) {
      parse_statement(builder);
      continue;
    }
    if (at_word("return")) break;
    if (at_word("fusion")) fail(token_.location, "fusions cannot be nested: one fusion per text");
    if (token_.kind == TokenKind::RightBrace)
      fail(token_.location, "missing 'return' before the closing '}'");
    if (token_.kind == TokenKind::End)
      fail(token_.location, "unexpected end of input: the fusion has no 'return' and no closing '}'");
    fail(token_.location, "expected a statement '%name = op ...' or 'return', found ",
         describe_token(token_));
  }
  const SourceLocation return_location = token_.location;
  advance();
  std::vector<FusionOutput> outputs = parse_return(builder.num_nodes());
  if (token_.kind != TokenKind::RightBrace) {
    if (at_word("return")) fail(token_.location, "a fusion has exactly one 'return'");
    if (token_.kind == TokenKind::ValueName || token_.kind == TokenKind::End ||
        token_.kind == TokenKind::Word)
      fail(token_.location, "expected ',' or '}' after the returned value, found ", describe_token(token_));
    fail(token_.location, "expected '}' after the return list, found ", describe_token(token_));
  }
  advance();
  if (token_.kind != TokenKind::End)
    fail(token_.location, "unexpected ", describe_token(token_),
         " after the fusion's closing '}': a text holds exactly one fusion");
  try {
    return builder.finish(std::move(outputs));
  } catch (const Error& e) {
    fail(return_location, e.what());
  }
}

Value Parser::lookup(const Token& name) const {
  auto it = values_.find(name.text);
  if (it == values_.end()) fail(name.location, "undefined value ", describe_token(name));
  return it->second.value;
}

void Parser::parse_statement(Builder& builder) {
  const Token name = token_;
  advance();
  if (auto it = values_.find(name.text); it != values_.end())
    fail(name.location, "value ", describe_token(name), " is already defined at line ",
         it->second.location.line, ", column ", it->second.location.column);
  expect(TokenKind::Equals, "after the value name");
  if (token_.kind != TokenKind::Word)
    fail(token_.location, "expected an op name after '=', found ", describe_token(token_));
  const Token keyword = token_;
  std::optional<OpKind> op = op_from_keyword(keyword.text);
  if (!op) fail(keyword.location, "unknown op ", describe_token(keyword));
  const OpInfo& info = op_info(*op);
  advance();

  std::vector<Value> operands;
  // Operands are values; a literal written in their place gets a hint instead of a bare "expected".
  auto reject_literal_operand = [&] {
    if (token_.kind == TokenKind::Number ||
        (token_.kind == TokenKind::Word &&
         (token_.text == "inf" || token_.text == "nan" || token_.text == "true" || token_.text == "false")))
      fail(token_.location, "op '", info.keyword, "': operands are values, not literals: define ",
           describe_token(token_), " first, e.g. `%c = const {value=", token_.text, "} : f32`, and use %c");
  };
  reject_literal_operand();
  if (token_.kind == TokenKind::ValueName) {
    while (true) {
      if (operands.size() >= static_cast<size_t>(TextLimits::kMaxOperands))
        fail(token_.location, "op '", info.keyword, "' has more than ", TextLimits::kMaxOperands,
             " operands");
      operands.push_back(lookup(token_));
      advance();
      if (token_.kind != TokenKind::Comma) break;
      advance();
      reject_literal_operand();
      if (token_.kind != TokenKind::ValueName)
        fail(token_.location, "expected a value name after ',' in the operand list, found ",
             describe_token(token_));
    }
  }
  Attrs attrs;
  if (token_.kind == TokenKind::LeftBrace) parse_attrs(info, attrs);
  expect(TokenKind::Colon, "before the result type");
  Type declared = parse_type();

  Value value;
  try {
    value = builder.add(*op, std::move(operands), std::move(attrs), std::move(declared));
  } catch (const Error& e) {
    // Builder names the value by its index; name it as the text does.
    std::string_view message = e.what();
    std::string prefix = detail::concat("%", builder.num_nodes(), " = ", info.keyword, ": ");
    if (message.substr(0, prefix.size()) == prefix) message.remove_prefix(prefix.size());
    fail(keyword.location, "%", name.text, " = ", info.keyword, ": ", message);
  }
  // A name that is only a number carries nothing the printed index does not.
  if (name.text.find_first_not_of("0123456789") != std::string::npos)
    builder.set_source_name(value, std::string(name.text));
  values_.emplace(name.text, DefinedValue{value, name.location});
}

void Parser::parse_attrs(const OpInfo& info, Attrs& attrs) {
  advance();  // '{'
  if (token_.kind == TokenKind::RightBrace) {
    advance();
    return;
  }
  while (true) {
    if (token_.kind != TokenKind::Word)
      fail(token_.location, "expected an attribute name, found ", describe_token(token_));
    const Token key = token_;
    const AttrSpec* spec = nullptr;
    for (const AttrSpec& s : info.attrs)
      if (s.key == key.text) spec = &s;
    if (!spec) {
      std::string known;
      for (const AttrSpec& s : info.attrs) known += detail::concat(known.empty() ? "" : ", ", s.key);
      fail(key.location, "op '", info.keyword, "' has no attribute ", describe_token(key),
           known.empty() ? std::string(" (it takes none)") : detail::concat(" (it takes: ", known, ")"));
    }
    if (attrs.has(key.text)) fail(key.location, "attribute ", describe_token(key), " is given twice");
    advance();
    if (token_.kind != TokenKind::Equals)
      fail(token_.location, "expected '=' after the attribute name '", key.text, "', found ",
           describe_token(token_));
    advance();
    attrs.set(std::string(key.text), parse_attr_value(info, *spec, key));
    if (token_.kind == TokenKind::RightBrace) break;
    if (token_.kind != TokenKind::Comma)
      fail(token_.location, "expected ',' or '}' in the attribute list, found ", describe_token(token_));
    advance();
  }
  advance();  // '}'
}

AttrValue Parser::parse_attr_value(const OpInfo& info, const AttrSpec& spec, const Token& key) {
  const LiteralContext what{key.text, info.keyword};
  switch (spec.kind) {
    case AttrKind::Int: return parse_int(what);
    case AttrKind::Ints: return parse_int_list(what);
    case AttrKind::Number: return parse_number(what);
    case AttrKind::DType: {
      if (token_.kind != TokenKind::Word)
        fail(token_.location, "expected a dtype ", what, ", found ", describe_token(token_));
      std::optional<DType> dtype = parse_dtype(token_.text);
      if (!dtype) fail(token_.location, "unknown dtype ", describe_token(token_));
      advance();
      return *dtype;
    }
    case AttrKind::Bool: {
      if (!at_word("true") && !at_word("false"))
        fail(token_.location, "expected true or false ", what, ", found ", describe_token(token_));
      bool value = token_.text == "true";
      advance();
      return value;
    }
    case AttrKind::String: {
      if (token_.kind != TokenKind::String)
        fail(token_.location, "expected a string ", what, ", found ", describe_token(token_));
      std::string text = decode_string(token_.text);
      if (info.kind == OpKind::Input && key.text == "name") {
        // Checked here rather than by the verifier so that the error points at the name.
        if (!is_identifier(text))
          fail(token_.location, "input name \"", text.substr(0, 40), "\" is not an identifier");
        if (!input_names_.insert(text).second)
          fail(token_.location, "input name \"", text, "\" is used twice");
      }
      advance();
      return text;
    }
  }
  SEAM_ASSERT(false, "unknown attribute kind");
  return {};
}

int64_t Parser::parse_int(const LiteralContext& what) {
  if (token_.kind != TokenKind::Number || !is_integer_literal(token_.text))
    fail(token_.location, "expected an integer ", what, ", found ", describe_token(token_));
  int64_t value = 0;
  auto [end, ec] = std::from_chars(token_.text.data(), token_.text.data() + token_.text.size(), value);
  if (ec != std::errc() || value > TextLimits::kMaxInteger || value < -TextLimits::kMaxInteger)
    fail(token_.location, "integer ", describe_token(token_),
         " is out of range: its magnitude may be at most 2^40");
  advance();
  return value;
}

std::vector<int64_t> Parser::parse_int_list(const LiteralContext& what) {
  if (token_.kind != TokenKind::LeftBracket)
    fail(token_.location, "expected an integer list like [1,2] ", what, ", found ", describe_token(token_));
  advance();
  std::vector<int64_t> values;
  if (token_.kind == TokenKind::RightBracket) {
    advance();
    return values;
  }
  while (true) {
    // Every int list is per axis (or names axes), so none is longer than the largest rank.
    if (values.size() == static_cast<size_t>(SizeLimits::kMaxRank))
      fail(token_.location, "integer list ", what, " has more than ", SizeLimits::kMaxRank, " entries");
    values.push_back(parse_int(what));
    if (token_.kind == TokenKind::RightBracket) break;
    if (token_.kind != TokenKind::Comma)
      fail(token_.location, "expected ',' or ']' in the integer list, found ", describe_token(token_));
    advance();
  }
  advance();
  return values;
}

Number Parser::parse_number(const LiteralContext& what) {
  Number number;
  if (token_.kind == TokenKind::Word) {
    if (token_.text == "true" || token_.text == "false")
      number = Number::of_bool(token_.text == "true");
    else if (token_.text == "inf")
      number = Number::of_float(std::numeric_limits<double>::infinity());
    else if (token_.text == "nan")
      number = Number::of_float(std::numeric_limits<double>::quiet_NaN());
    else
      fail(token_.location, "expected a number ", what, ", found ", describe_token(token_));
  } else if (token_.kind != TokenKind::Number) {
    fail(token_.location, "expected a number ", what, ", found ", describe_token(token_));
  } else if (token_.text == "-inf") {
    number = Number::of_float(-std::numeric_limits<double>::infinity());
  } else {
    const char* begin = token_.text.data();
    const char* end = begin + token_.text.size();
    if (is_integer_literal(token_.text)) {
      int64_t value = 0;
      if (std::from_chars(begin, end, value).ec != std::errc())
        fail(token_.location, "integer ", describe_token(token_), " does not fit in 64 bits");
      number = Number::of_int(value);
    } else {
      double value = 0;
      if (std::from_chars(begin, end, value).ec != std::errc())
        fail(token_.location, "number ", describe_token(token_), " is out of the range of f64");
      number = Number::of_float(value);
    }
  }
  advance();
  return number;
}

Type Parser::parse_type() {
  if (token_.kind != TokenKind::Word)
    fail(token_.location, "expected a result type like f32[2,3] after ':', found ", describe_token(token_));
  std::optional<DType> dtype = parse_dtype(token_.text);
  if (!dtype) fail(token_.location, "unknown dtype ", describe_token(token_));
  const SourceLocation type_location = token_.location;
  advance();
  if (token_.kind != TokenKind::LeftBracket) return Type::scalar(*dtype);
  advance();
  Shape shape;
  while (token_.kind != TokenKind::RightBracket) {
    if (!shape.empty()) {
      if (token_.kind != TokenKind::Comma)
        fail(token_.location, "expected ',' or ']' in the shape, found ", describe_token(token_));
      advance();
    }
    const SourceLocation extent_location = token_.location;
    if (shape.size() == static_cast<size_t>(SizeLimits::kMaxRank))
      fail(extent_location, "the result type has more than ", SizeLimits::kMaxRank, " axes");
    int64_t extent = parse_int(LiteralContext{});
    if (extent < 0) fail(extent_location, "negative extent ", extent, " in the result type");
    shape.push_back(extent);
  }
  advance();
  Type type = Type::tensor(*dtype, std::move(shape));
  try {
    check_type_limits(type);
  } catch (const Error& e) {
    fail(type_location, e.what());
  }
  return type;
}

std::vector<FusionOutput> Parser::parse_return(int64_t num_nodes) {
  std::vector<FusionOutput> outputs;
  std::unordered_set<std::string_view> names;
  while (true) {
    if (num_nodes + static_cast<int64_t>(outputs.size()) == SizeLimits::kMaxFusionSize)
      fail(token_.location, "the fusion has more than 2^20 values plus outputs");
    FusionOutput output;
    if (token_.kind == TokenKind::Word) {
      const Token name = token_;
      if (!names.insert(name.text).second)
        fail(name.location, "output name ", describe_token(name), " is used twice");
      advance();
      expect(TokenKind::Equals, detail::concat("after the output name '", name.text, "'"));
      output.name = std::string(name.text);
    }
    if (token_.kind != TokenKind::ValueName)
      fail(token_.location, "expected a value to return ('%name' or 'name=%value'), found ",
           describe_token(token_));
    output.value = lookup(token_);
    advance();
    outputs.push_back(std::move(output));
    if (token_.kind != TokenKind::Comma) break;
    advance();
  }
  return outputs;
}

}  // namespace

Fusion parse_fusion(std::string_view text, std::string_view filename) {
  return Parser(text, filename).parse();
}

Fusion parse_fusion_file(const std::string& path) {
  std::error_code ignored;
  SEAM_CHECK(!std::filesystem::is_directory(path, ignored), path, ": is a directory, not a file");
  std::ifstream file(path, std::ios::binary);
  SEAM_CHECK(file.good(), path, ": cannot open the file for reading");
  std::ostringstream contents;
  contents << file.rdbuf();
  SEAM_CHECK(!file.bad(), path, ": cannot read the file");
  return parse_fusion(contents.str(), path);
}

}  // namespace seam
