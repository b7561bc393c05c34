#include "traces/FlatEventScan.hpp"

#include <charconv>
#include <cstring>
#include <limits>

namespace progsim::traces {

namespace {

// The value of an integer token (checked: -?(0|[1-9][0-9]*)), false beyond
// a long long. One pass, where std::from_chars cost a tenth of the scan.
bool integer_value(const char* first, const char* last, long long& out)
{
  bool negative = *first == '-';
  first += negative;
  // The magnitude's limit: 2^63 - 1, or 2^63 for a negative value.
  const unsigned long long limit = static_cast<unsigned long long>(std::numeric_limits<long long>::max()) + negative;
  unsigned long long magnitude = 0;
  for (; first != last; ++first) {
    auto digit = static_cast<unsigned long long>(*first - '0');
    if (magnitude > (limit - digit) / 10)
      return false;
    magnitude = magnitude * 10 + digit;
  }
  out = negative ? static_cast<long long>(0 - magnitude) : static_cast<long long>(magnitude);
  return true;
}

// Reads the JSON grammar (RFC 8259) strictly: whatever the scan accepts,
// nlohmann's parser accepts with the same meaning.
class Scanner {
public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool object(std::vector<FlatField>& fields)
  {
    fields.clear();
    skip_space();
    if (!take('{'))
      return false;
    skip_space();
    if (at_end() || text_[pos_] == '}')
      return false;  // an empty object has no "call": the parser's error
    for (;;) {
      FlatField field;
      std::size_t key_end = 0;
      if (!take('"') || !plain_string(field.key, key_end) || key_end - field.key > 255)
        return false;
      field.key_length = static_cast<std::uint8_t>(key_end - field.key);
      for (const FlatField& earlier : fields)  // a repeated key: the parser keeps the last
        if (earlier.key_length == field.key_length &&
            std::memcmp(text_.data() + earlier.key, text_.data() + field.key, field.key_length) == 0)
          return false;
      skip_space();
      if (!take(':'))
        return false;
      skip_space();
      if (!value(field))
        return false;
      fields.push_back(field);
      skip_space();
      if (take(','))
        skip_space();
      else if (take('}'))
        break;
      else
        return false;
    }
    skip_space();
    return at_end();
  }

  // The elements of a list, known to be integers of a long long.
  static void integers(std::string_view list, std::vector<int>& out)
  {
    Scanner s(list);
    s.skip_space();
    while (!s.at_end()) {
      long long value = 0;
      s.integer_token(value);
      out.push_back(static_cast<int>(value));
      s.skip_space();
      s.take(',');
      s.skip_space();
    }
  }

private:
  bool at_end() const { return pos_ >= text_.size(); }
  bool take(char c)
  {
    if (at_end() || text_[pos_] != c)
      return false;
    ++pos_;
    return true;
  }
  void skip_space()
  {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool digit() const { return !at_end() && text_[pos_] >= '0' && text_[pos_] <= '9'; }

  // After the opening quote: printable ASCII up to the closing quote. An
  // escape, a control character (invalid unescaped) or a byte of UTF-8
  // (which the parser checks) is left to the parser.
  bool plain_string(std::uint16_t& begin, std::size_t& end)
  {
    begin = static_cast<std::uint16_t>(pos_);
    while (!at_end()) {
      auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        end = pos_++;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80)
        return false;
      ++pos_;
    }
    return false;
  }

  // A JSON number token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?;
  // `fraction` when it has a fraction or an exponent (a JSON float).
  bool number_token(std::size_t& begin, bool& fraction)
  {
    begin = pos_;
    fraction = false;
    take('-');
    if (take('0')) {
      if (digit())
        return false;  // a leading zero
    } else {
      if (!digit())
        return false;
      while (digit())
        ++pos_;
    }
    if (take('.')) {
      fraction = true;
      if (!digit())
        return false;
      while (digit())
        ++pos_;
    }
    if (!at_end() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      fraction = true;
      ++pos_;
      if (!take('+'))
        take('-');
      if (!digit())
        return false;
      while (digit())
        ++pos_;
    }
    return true;
  }

  // An integer token that a long long holds (beyond it, nlohmann keeps an
  // unsigned integer or a float: the parser's case).
  bool integer_token(long long& value)
  {
    std::size_t begin = 0;
    bool fraction = false;
    if (!number_token(begin, fraction) || fraction)
      return false;
    return integer_value(text_.data() + begin, text_.data() + pos_, value);
  }

  bool value(FlatField& field)
  {
    if (at_end())
      return false;
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      std::size_t end = 0;
      if (!plain_string(field.value, end))
        return false;
      field.value_end = static_cast<std::uint16_t>(end);
      field.kind = FlatField::Kind::String;
      return true;
    }
    if (c == '[') {
      ++pos_;
      field.value = static_cast<std::uint16_t>(pos_);
      field.kind = FlatField::Kind::IntegerList;
      skip_space();
      if (take(']')) {
        field.value_end = field.value;
        return true;
      }
      for (;;) {
        long long ignored = 0;
        if (!integer_token(ignored))
          return false;
        skip_space();
        if (take(',')) {
          skip_space();
          continue;
        }
        field.value_end = static_cast<std::uint16_t>(pos_);
        return take(']');
      }
    }
    std::size_t begin = pos_;
    bool fraction = false;
    if (!number_token(begin, fraction))
      return false;
    field.value = static_cast<std::uint16_t>(begin);
    field.value_end = static_cast<std::uint16_t>(pos_);
    const char* first = text_.data() + begin;
    const char* last = text_.data() + pos_;
    if (!fraction) {
      field.kind = FlatField::Kind::Integer;
      return integer_value(first, last, field.integer);
    }
    // Correctly rounded, as glibc's strtod that nlohmann calls; beyond a
    // double's range (nlohmann's infinity) the parser's case.
    field.kind = FlatField::Kind::Number;
    auto [end, error] = std::from_chars(first, last, field.number);
    return error == std::errc() && end == last;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

bool scan_flat_event(std::string_view line, std::vector<FlatField>& fields)
{
  // Offsets are 16 bits (FlatField): a longer line (a list of thousands of peers) is the parser's.
  if (line.size() > std::numeric_limits<std::uint16_t>::max())
    return false;
  return Scanner(line).object(fields);
}

void flat_integers(std::string_view list, std::vector<int>& out)
{
  Scanner::integers(list, out);
}

}  // namespace progsim::traces
