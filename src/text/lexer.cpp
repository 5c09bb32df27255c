#include "text/lexer.h"

#include <cstdio>

#include "support/error.h"

namespace seam {
namespace {

bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) { return is_word_start(c) || is_digit(c) || c == '.'; }

// How a single byte reads in an error message.
std::string describe_byte(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f) return detail::concat("'", c, "'");
  char hex[8];
  std::snprintf(hex, sizeof(hex), "0x%02x", byte);
  if (byte == 0) return detail::concat("NUL byte ", hex);
  if (byte >= 0x80) return detail::concat("non-ASCII byte ", hex);
  return detail::concat("control byte ", hex);
}

}  // namespace

std::string describe_token(const Token& token) {
  switch (token.kind) {
    case TokenKind::End: return "end of input";
    case TokenKind::String: return "a string";
    default: break;
  }
  constexpr size_t kMaxShown = 40;
  std::string_view text = token.text;
  std::string prefix = token.kind == TokenKind::ValueName ? "%" : "";
  if (text.size() > kMaxShown) return detail::concat("'", prefix, text.substr(0, kMaxShown), "...'");
  return detail::concat("'", prefix, text, "'");
}

bool is_integer_literal(std::string_view text) {
  return text.find_first_of(".eEn") == std::string_view::npos;  // 'n' catches "-inf"
}

std::string decode_string(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out += raw[i];
      continue;
    }
    char escaped = raw[++i];
    out += escaped == 'n' ? '\n' : escaped;  // the lexer only lets \" \\ \n through
  }
  return out;
}

Lexer::Lexer(std::string_view text, std::string_view filename) : text_(text), filename_(filename) {}

SourceLocation Lexer::here() const {
  return SourceLocation{line_, static_cast<uint32_t>(pos_ - line_start_ + 1)};
}

void Lexer::fail(SourceLocation location, const std::string& message) const {
  throw Error(detail::concat(filename_, ":", location.line, ":", location.column, ": ", message));
}

void Lexer::fail_on_byte(const char* context) const {
  fail(here(), detail::concat("unexpected ", describe_byte(text_[pos_]), context));
}

void Lexer::skip_space_and_comments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      // Comments may hold any byte but NUL (UTF-8 prose is fine there).
      while (pos_ < text_.size() && text_[pos_] != '\n') {
        if (text_[pos_] == '\0') fail_on_byte(" in a comment");
        ++pos_;
      }
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skip_space_and_comments();
  SourceLocation start = here();
  if (pos_ >= text_.size()) return Token{TokenKind::End, {}, start};
  const char c = text_[pos_];
  auto single = [&](TokenKind kind) {
    ++pos_;
    return Token{kind, text_.substr(pos_ - 1, 1), start};
  };
  switch (c) {
    case '{': return single(TokenKind::LeftBrace);
    case '}': return single(TokenKind::RightBrace);
    case '[': return single(TokenKind::LeftBracket);
    case ']': return single(TokenKind::RightBracket);
    case ',': return single(TokenKind::Comma);
    case '=': return single(TokenKind::Equals);
    case ':': return single(TokenKind::Colon);
    case '"': return lex_string(start);
    default: break;
  }
  if (c == '-' || is_digit(c)) return lex_number(start);
  if (is_word_start(c)) {
    size_t begin = pos_;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
    return Token{TokenKind::Word, text_.substr(begin, pos_ - begin), start};
  }
  if (c == '%') {
    size_t begin = ++pos_;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
    std::string_view name = text_.substr(begin, pos_ - begin);
    if (name.empty()) fail(start, "expected a value name after '%'");
    bool all_digits = true;
    for (char d : name) all_digits = all_digits && is_digit(d);
    if (!all_digits && !is_word_start(name[0]))
      fail(start, detail::concat("value name '%", name.substr(0, 40), "' must be an identifier or a number"));
    return Token{TokenKind::ValueName, name, start};
  }
  fail_on_byte("");
}

Token Lexer::lex_number(SourceLocation start) {
  const size_t begin = pos_;
  if (text_[pos_] == '-') {
    ++pos_;
    if (text_.substr(pos_, 3) == "inf" && (pos_ + 3 == text_.size() || !is_word_char(text_[pos_ + 3]))) {
      pos_ += 3;
      return Token{TokenKind::Number, text_.substr(begin, pos_ - begin), start};
    }
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail(start, "expected a number after '-'");
  }
  auto digits = [&] {
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  };
  digits();
  if (pos_ + 1 < text_.size() && text_[pos_] == '.' && is_digit(text_[pos_ + 1])) {
    ++pos_;
    digits();
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_]))
      fail(start, detail::concat("malformed number '", text_.substr(begin, pos_ - begin),
                                 "': expected digits in the exponent"));
    digits();
  }
  if (pos_ < text_.size() && is_word_char(text_[pos_]))
    fail(here(), detail::concat("unexpected ", describe_byte(text_[pos_]), " after the number '",
                                text_.substr(begin, pos_ - begin), "'"));
  return Token{TokenKind::Number, text_.substr(begin, pos_ - begin), start};
}

Token Lexer::lex_string(SourceLocation start) {
  const size_t begin = ++pos_;  // past the opening quote
  while (true) {
    if (pos_ >= text_.size() || text_[pos_] == '\n')
      fail(start, "unterminated string: missing the closing '\"' on this line");
    char c = text_[pos_];
    if (c == '"') break;
    if (c == '\\') {
      char escaped = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
      if (escaped != '"' && escaped != '\\' && escaped != 'n')
        fail(here(), "unknown escape in string: only \\\", \\\\ and \\n are allowed");
      pos_ += 2;
      continue;
    }
    auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte >= 0x7f) fail_on_byte(" in a string");
    ++pos_;
  }
  Token token{TokenKind::String, text_.substr(begin, pos_ - begin), start};
  ++pos_;  // past the closing quote
  return token;
}

}  // namespace seam
