// The `--where` parser: a comparison with a number, a named test, or an interval.
#include <upsweep/apps/where_predicate.hpp>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace upsweep::apps {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

where_bound parse_bound(std::string_view text, std::string_view whole) {
  text = trim(text);
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  where_bound b;
  std::int64_t i = 0;
  const auto ri = std::from_chars(first, last, i);
  if (ri.ec == std::errc() && ri.ptr == last) {
    b.is_integer = true;
    b.integer = i;
    b.value = static_cast<double>(i);
    return b;
  }
  const auto rd = std::from_chars(first, last, b.value);
  if (text.empty() || rd.ptr != last || (rd.ec != std::errc() && rd.ec != std::errc::result_out_of_range))
    throw std::invalid_argument("--where '" + std::string(whole) + "': '" + std::string(text) + "' is not a number");
  // Out of range, from_chars leaves the value alone: take strtod's +-inf (or +-0 below the
  // smallest double), so '> 1e400' keeps nothing finite instead of comparing with 0. The text
  // is a well-formed decimal here, so strtod reads the same digits.
  if (rd.ec == std::errc::result_out_of_range) b.value = std::strtod(std::string(first, last).c_str(), nullptr);
  if (std::isnan(b.value)) throw std::invalid_argument("--where '" + std::string(whole) + "': cannot compare with NaN");
  return b;
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
        if (p.lo.value > p.hi.value)
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
  const auto num = [](const where_bound& b) {
    if (b.is_integer) return std::to_string(b.integer);
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, b.value);
    return std::string(buffer, r.ptr);
  };
  switch (p.op) {
    case where_op::lt: return "< " + num(p.lo);
    case where_op::le: return "<= " + num(p.lo);
    case where_op::gt: return "> " + num(p.lo);
    case where_op::ge: return ">= " + num(p.lo);
    case where_op::eq: return "== " + num(p.lo);
    case where_op::ne: return "!= " + num(p.lo);
    case where_op::even: return "even";
    case where_op::odd: return "odd";
    case where_op::finite: return "finite";
    case where_op::in_range:
      return std::string("in ") + (p.lo_open ? "(" : "[") + num(p.lo) + ", " + num(p.hi) + (p.hi_closed ? "]" : ")");
  }
  return "?";
}

}  // namespace upsweep::apps
