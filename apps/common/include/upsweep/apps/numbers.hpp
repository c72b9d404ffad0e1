// The tools' host-side data: element types, a typed array of any of them, and the error that
// carries `file:line:col: message`. Host C++ only (no CUDA); shared by upsweep-sort and
// upsweep-compact.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace upsweep::apps {

enum class element_type { u8, u16, u32, u64, i8, i16, i32, i64, f32, f64 };

// Every element type, in the order of the enum and of number_array's alternatives.
using number_array = std::variant<std::vector<std::uint8_t>, std::vector<std::uint16_t>, std::vector<std::uint32_t>,
                                  std::vector<std::uint64_t>, std::vector<std::int8_t>, std::vector<std::int16_t>,
                                  std::vector<std::int32_t>, std::vector<std::int64_t>, std::vector<float>,
                                  std::vector<double>>;

const char* type_name(element_type type);  // "u32"
std::size_t type_size(element_type type);
element_type parse_type_name(std::string_view name);  // throws std::invalid_argument
inline element_type type_of(const number_array& a) { return static_cast<element_type>(a.index()); }
std::int64_t size_of(const number_array& a);
number_array make_array(element_type type, std::size_t n = 0);

// Equal bit for bit: the same items with the same bytes (== would call NaN keys unequal).
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
inline bool same_bits(const number_array& a, const number_array& b) {
  return a.index() == b.index() &&
         std::visit([&](const auto& x) { return same_bits(x, std::get<std::decay_t<decltype(x)>>(b)); }, a);
}

// fn(T{}) for the C++ type T of `type`, and its result.
template <class Fn>
decltype(auto) with_element_type(element_type type, Fn&& fn) {
  return std::visit([&](const auto& v) { return fn(typename std::decay_t<decltype(v)>::value_type{}); }, make_array(type));
}

template <class T> constexpr element_type element_type_of();
template <> constexpr element_type element_type_of<std::uint8_t>() { return element_type::u8; }
template <> constexpr element_type element_type_of<std::uint16_t>() { return element_type::u16; }
template <> constexpr element_type element_type_of<std::uint32_t>() { return element_type::u32; }
template <> constexpr element_type element_type_of<std::uint64_t>() { return element_type::u64; }
template <> constexpr element_type element_type_of<std::int8_t>() { return element_type::i8; }
template <> constexpr element_type element_type_of<std::int16_t>() { return element_type::i16; }
template <> constexpr element_type element_type_of<std::int32_t>() { return element_type::i32; }
template <> constexpr element_type element_type_of<std::int64_t>() { return element_type::i64; }
template <> constexpr element_type element_type_of<float>() { return element_type::f32; }
template <> constexpr element_type element_type_of<double>() { return element_type::f64; }

// A problem with the user's input or output: what() is `file:line:col: message`, with line and
// column left out when they are 0 (a whole-file problem such as a bad size).
class input_error : public std::runtime_error {
 public:
  input_error(const std::string& file, std::int64_t line, std::int64_t col, const std::string& message);
  input_error(const std::string& file, const std::string& message) : input_error(file, 0, 0, message) {}
  const std::string& file() const noexcept { return file_; }
  std::int64_t line() const noexcept { return line_; }
  std::int64_t column() const noexcept { return col_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string file_, message_;
  std::int64_t line_, col_;
};

}  // namespace upsweep::apps
