// The lexer of the text format (docs/FORMAT.md): turns text into tokens on demand, one at a time, with
// their line and column. Tokens are views into the text, so lexing allocates nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace seam {

enum class TokenKind : uint8_t {
  End,           // end of the text
  Word,          // identifier: [A-Za-z_][A-Za-z0-9_.]*  (keywords, names, dtypes, inf, nan, true, false)
  ValueName,     // %name or %12; text excludes the '%'
  Number,        // -?digits(.digits)?([eE][+-]?digits)?  or -inf
  String,        // "..."; text is the raw source between the quotes, escapes undecoded
  LeftBrace,     // {
  RightBrace,    // }
  LeftBracket,   // [
  RightBracket,  // ]
  Comma,
  Equals,
  Colon,
};

struct SourceLocation {
  uint32_t line = 1;
  uint32_t column = 1;
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  SourceLocation location;
};

// How a token reads in an error message: "'foo'" (shortened when long) or "end of input".
std::string describe_token(const Token& token);

// True when a Number token's text is an integer literal (no fraction, exponent or inf).
bool is_integer_literal(std::string_view number_text);

// Decodes the escapes (\" \\ \n) of a String token's text.
std::string decode_string(std::string_view raw);

class Lexer {
 public:
  // `filename` prefixes error messages: "FILE:LINE:COL: error: MESSAGE".
  Lexer(std::string_view text, std::string_view filename);

  // The next token; throws seam::Error for text that forms no token (bad byte, unterminated string).
  Token next();

  // Throws seam::Error located at `location`.
  [[noreturn]] void fail(SourceLocation location, const std::string& message) const;

 private:
  void skip_space_and_comments();
  Token lex_number(SourceLocation start);
  Token lex_string(SourceLocation start);
  SourceLocation here() const;
  [[noreturn]] void fail_on_byte(const char* context) const;

  std::string_view text_;
  std::string_view filename_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  uint32_t line_ = 1;
};

}  // namespace seam
