// The `--where` parser: a comparison with a number, a named test, or an interval.
#include <upsweep/apps/where_predicate.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace upsweep::apps {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Sets b's exact form from the decimal literal `s` (already checked by from_chars): the integer
// it is, "12", "-3.0", "1e3", "2.50e1" alike, or its floor and `fractional`. Exact decimal
// arithmetic on the digits, no double involved.
void set_exact(std::string_view s, where_bound& b) {
  const bool negative = !s.empty() && s.front() == '-';
  if (negative) s.remove_prefix(1);
  std::string digits;
  long long point = -1;  // digits before the decimal point
  std::size_t i = 0;
  for (; i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') digits += s[i];
    else if (s[i] == '.' && point < 0) point = static_cast<long long>(digits.size());
    else break;
  }
  if (digits.empty()) return;  // inf
  if (point < 0) point = static_cast<long long>(digits.size());
  long long exponent = 0;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return;
    std::string_view e = s.substr(i + 1);
    const bool e_negative = !e.empty() && e.front() == '-';
    if (!e.empty() && (e.front() == '-' || e.front() == '+')) e.remove_prefix(1);
    const auto r = std::from_chars(e.data(), e.data() + e.size(), exponent);
    if (r.ptr != e.data() + e.size()) return;
    if (r.ec == std::errc::result_out_of_range) exponent = 1'000'000'000;  // no literal has that many digits
    exponent = std::min(exponent, 1'000'000'000LL);
    if (e_negative) exponent = -exponent;
  }
  const std::size_t first_nonzero = std::min(digits.find_first_not_of('0'), digits.size());
  digits.erase(0, first_nonzero);
  point -= static_cast<long long>(first_nonzero);
  b = where_bound{b.value};
  b.exact = true;
  if (digits.empty()) return;  // zero, of either sign
  // The integer part: the first point + exponent digits (zeros appended as the exponent asks).
  const long long integer_digits = std::max(point + exponent, 0LL);
  b.fractional = integer_digits < static_cast<long long>(digits.size()) &&
                 digits.find_first_not_of('0', static_cast<std::size_t>(integer_digits)) != std::string::npos;
  if (integer_digits > 20) {
    b.beyond_u64 = true;
  } else {
    digits.resize(static_cast<std::size_t>(integer_digits), '0');
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), b.magnitude);
    if (digits.empty()) b.magnitude = 0;
    b.beyond_u64 = r.ec == std::errc::result_out_of_range;
  }
  // The floor of a negative fraction is one further from zero than its integer part.
  if (negative && b.fractional && !b.beyond_u64) {
    if (b.magnitude == ~std::uint64_t{0}) b.beyond_u64 = true;
    else ++b.magnitude;
  }
  b.negative = negative && (b.beyond_u64 || b.magnitude != 0);
}

// Reads a decimal literal (an optional '+' or '-', digits, point, exponent, or inf) into a bound;
// false when the text is not one.
bool read_bound(std::string_view text, where_bound& b) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+' && (last - first == 1 || first[1] != '-')) ++first;  // not "+-1"
  b = where_bound{};
  const auto rd = std::from_chars(first, last, b.value);
  if (text.empty() || rd.ptr != last || (rd.ec != std::errc() && rd.ec != std::errc::result_out_of_range))
    return false;
  // Out of range, from_chars leaves the value alone: take strtod's +-inf (or +-0 below the
  // smallest double), so '> 1e400' keeps nothing finite instead of comparing with 0. The text
  // is a well-formed decimal here, so strtod reads the same digits.
  if (rd.ec == std::errc::result_out_of_range) b.value = std::strtod(std::string(first, last).c_str(), nullptr);
  set_exact(std::string_view(first, static_cast<std::size_t>(last - first)), b);  // for integer items
  return true;
}

where_bound parse_bound(std::string_view text, std::string_view whole) {
  text = trim(text);
  where_bound b;
  if (!read_bound(text, b))
    throw std::invalid_argument("--where '" + std::string(whole) + "': '" + std::string(text) + "' is not a number");
  if (std::isnan(b.value)) throw std::invalid_argument("--where '" + std::string(whole) + "': cannot compare with NaN");
  return b;
}

bool same_bound(const where_bound& a, const where_bound& b) {
  return std::memcmp(&a.value, &b.value, sizeof(double)) == 0 && a.exact == b.exact && a.magnitude == b.magnitude &&
         a.negative == b.negative && a.fractional == b.fractional && a.beyond_u64 == b.beyond_u64;
}

std::string shortest_text(double value) {
  char buffer[64];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, r.ptr);
}

// Text that reads back as exactly this bound: its double for float items and its floor for
// integer ones. A fraction whose double is a whole number ("2.99999999999999999" reads as 3.0,
// "9007199254740992.5" as 2^53) would read back as that integer, losing the fraction, and
// could make a valid interval empty (fuzz_where: "in [9007199254740993, 9007199254740992.5]").
// Such a bound is written as its floor plus a fraction that rounds to the same double.
std::string bound_text(const where_bound& b) {
  if (b.exact && !b.fractional && !b.beyond_u64) return (b.negative ? "-" : "") + std::to_string(b.magnitude);
  const std::string shortest = shortest_text(b.value);
  if (!b.exact || !b.fractional || b.beyond_u64) return shortest;
  const auto reads_back = [&b](const std::string& text) {
    where_bound c;
    return read_bound(text, c) && same_bound(b, c);
  };
  if (reads_back(shortest)) return shortest;
  // The floor's integer part as written: a negative floor -m lies below its fraction -(m - 1).x.
  const std::string whole = b.negative ? "-" + std::to_string(b.magnitude - 1) : std::to_string(b.magnitude);
  for (const char* fraction : {"5", "25", "75", "000000000000000000000000000001", "999999999999999999999999999999"}) {
    const std::string text = whole + "." + fraction;
    if (reads_back(text)) return text;
  }
  for (const char* tiny : {"1e-400", "-1e-400"})  // fractions of 0 or -1 that round to a zero
    if (reads_back(tiny)) return tiny;
  return shortest;
}

}  // namespace

where_predicate parse_where(std::string_view text) {
  const std::string_view whole = text;
  text = trim(text);
  where_predicate p;
  if (text == "even") { p.op = where_op::even; return p; }
  if (text == "odd") { p.op = where_op::odd; return p; }
  if (text == "finite") { p.op = where_op::finite; return p; }
  static const struct { const char* token; where_op op; } comparisons[] = {
      {"<=", where_op::le}, {">=", where_op::ge}, {"==", where_op::eq}, {"!=", where_op::ne},
      {"<", where_op::lt},  {">", where_op::gt}};
  for (const auto& c : comparisons) {
    const std::string_view token(c.token);
    if (text.substr(0, token.size()) != token) continue;
    p.op = c.op;
    p.lo = parse_bound(text.substr(token.size()), whole);
    return p;
  }
  if (text.substr(0, 2) == "in" && text.size() > 2 && (text[2] == ' ' || text[2] == '[' || text[2] == '(')) {
    const std::string_view range = trim(text.substr(2));
    if (range.size() >= 2 && (range.front() == '[' || range.front() == '(') && (range.back() == ']' || range.back() == ')')) {
      const std::string_view inside = range.substr(1, range.size() - 2);
      const std::size_t comma = inside.find(',');
      if (comma != std::string_view::npos) {
        p.op = where_op::in_range;
        p.lo_open = range.front() == '(';
        p.hi_closed = range.back() == ']';
        p.lo = parse_bound(inside.substr(0, comma), whole);
        p.hi = parse_bound(inside.substr(comma + 1), whole);
        const bool exact = p.lo.exact && p.hi.exact && !p.lo.fractional && !p.hi.fractional && !p.lo.beyond_u64 &&
                           !p.hi.beyond_u64;
        const bool lo_above_hi =
            exact ? (p.lo.negative != p.hi.negative ? p.hi.negative
                                                    : (p.lo.negative ? p.lo.magnitude < p.hi.magnitude
                                                                     : p.lo.magnitude > p.hi.magnitude))
                  : p.lo.value > p.hi.value;
        if (lo_above_hi)
          throw std::invalid_argument("--where '" + std::string(whole) + "': the interval is empty (lower bound above upper)");
        return p;
      }
    }
    throw std::invalid_argument("--where '" + std::string(whole) + "': expected an interval such as 'in [0,10)'");
  }
  throw std::invalid_argument("--where '" + std::string(whole) +
                              "': expected '< V', '<= V', '> V', '>= V', '== V', '!= V', 'even', 'odd', "
                              "'finite' or 'in [A,B)'");
}

std::string describe(const where_predicate& p) {
  switch (p.op) {
    case where_op::lt: return "< " + bound_text(p.lo);
    case where_op::le: return "<= " + bound_text(p.lo);
    case where_op::gt: return "> " + bound_text(p.lo);
    case where_op::ge: return ">= " + bound_text(p.lo);
    case where_op::eq: return "== " + bound_text(p.lo);
    case where_op::ne: return "!= " + bound_text(p.lo);
    case where_op::even: return "even";
    case where_op::odd: return "odd";
    case where_op::finite: return "finite";
    case where_op::in_range:
      return std::string("in ") + (p.lo_open ? "(" : "[") + bound_text(p.lo) + ", " + bound_text(p.hi) + (p.hi_closed ? "]" : ")");
  }
  return "?";
}

}  // namespace upsweep::apps
