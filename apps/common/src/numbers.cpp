// Element type names and sizes, the typed array helpers and input_error's message.
#include <upsweep/apps/numbers.hpp>

#include <array>

namespace upsweep::apps {
namespace {
constexpr std::array<const char*, 10> type_names = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
constexpr std::array<std::size_t, 10> type_sizes = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8};

std::string where_text(const std::string& file, std::int64_t line, std::int64_t col, const std::string& message) {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line);
  if (line > 0 && col > 0) s += ":" + std::to_string(col);
  return s + ": " + message;
}
}  // namespace

const char* type_name(element_type type) { return type_names[static_cast<std::size_t>(type)]; }
std::size_t type_size(element_type type) { return type_sizes[static_cast<std::size_t>(type)]; }

element_type parse_type_name(std::string_view name) {
  for (std::size_t i = 0; i < type_names.size(); ++i)
    if (name == type_names[i]) return static_cast<element_type>(i);
  throw std::invalid_argument("unknown type '" + std::string(name) + "' (u8, u16, u32, u64, i8, i16, i32, i64, f32, f64)");
}

std::int64_t size_of(const number_array& a) {
  return std::visit([](const auto& v) { return static_cast<std::int64_t>(v.size()); }, a);
}

number_array make_array(element_type type, std::size_t n) {
  number_array a;
  switch (type) {
    case element_type::u8: a.emplace<0>(n); break;
    case element_type::u16: a.emplace<1>(n); break;
    case element_type::u32: a.emplace<2>(n); break;
    case element_type::u64: a.emplace<3>(n); break;
    case element_type::i8: a.emplace<4>(n); break;
    case element_type::i16: a.emplace<5>(n); break;
    case element_type::i32: a.emplace<6>(n); break;
    case element_type::i64: a.emplace<7>(n); break;
    case element_type::f32: a.emplace<8>(n); break;
    case element_type::f64: a.emplace<9>(n); break;
  }
  return a;
}

input_error::input_error(const std::string& file, std::int64_t line, std::int64_t col, const std::string& message)
    : std::runtime_error(where_text(file, line, col, message)), file_(file), message_(message), line_(line), col_(col) {}

}  // namespace upsweep::apps
