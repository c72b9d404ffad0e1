// The .npy reader: the header's dict (descr, fortran_order, shape), then the data as raw binary.
#include <upsweep/apps/read_numbers.hpp>

#include "read_formats.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "binary and .npy I/O assume a little-endian host");

namespace upsweep::apps {
namespace {

using detail::npy_header;

class npy_dict_parser {
 public:
  npy_dict_parser(std::string_view text, const std::string& name) : s_(text), name_(name) {}

  npy_header parse(std::size_t data_offset, std::size_t file_size) {
    std::string descr;
    bool have_descr = false, have_order = false, have_shape = false;
    std::vector<std::int64_t> shape;
    expect('{');
    for (;;) {
      skip();
      if (peek() == '}') break;
      const std::string key = quoted();
      expect(':');
      skip();
      if (key == "descr") {
        descr = quoted();
        have_descr = true;
      } else if (key == "fortran_order") {
        const std::string value = word();
        if (value != "True" && value != "False") fail("fortran_order is '" + value + "', not True or False");
        have_order = true;  // for a 1-D array both orders are the same bytes
      } else if (key == "shape") {
        shape = tuple();
        have_shape = true;
      } else {
        fail("unexpected key '" + key + "'");
      }
      skip();
      if (peek() == ',') ++i_;
    }
    if (!have_descr || !have_order || !have_shape) fail("the header needs descr, fortran_order and shape");
    if (shape.size() != 1) {
      std::string text = "(";
      for (std::size_t k = 0; k < shape.size(); ++k) text += (k ? ", " : "") + std::to_string(shape[k]);
      throw input_error(name_, "only 1-D arrays are supported; this one has shape " + text + (shape.size() == 1 ? ",)" : ")"));
    }
    npy_header h;
    h.type = descr_type(descr);
    h.count = shape[0];
    h.data_offset = data_offset;
    const std::size_t item_bytes = type_size(h.type), have = file_size - data_offset;
    // Compared by division: count * item_bytes can wrap (2^61 + 1 items of u8 claim 8 bytes).
    if (have % item_bytes != 0 || static_cast<std::size_t>(h.count) != have / item_bytes) {
      const bool fits = static_cast<std::size_t>(h.count) <= SIZE_MAX / item_bytes;
      const std::string need = fits ? std::to_string(static_cast<std::size_t>(h.count) * item_bytes) : "over 2^64";
      throw input_error(name_, "the header says " + std::to_string(h.count) + " items (" + need +
                                   " bytes) but the file holds " + std::to_string(have) + " bytes of data");
    }
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) { throw input_error(name_, "bad .npy header: " + what); }
  void skip() { while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t')) ++i_; }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void expect(char c) {
    skip();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string quoted() {
    skip();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const std::size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return out;
  }
  std::string word() {
    const std::size_t b = i_;
    while (i_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[i_]))) ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  std::vector<std::int64_t> tuple() {
    expect('(');
    std::vector<std::int64_t> out;
    for (;;) {
      skip();
      if (peek() == ')') { ++i_; break; }
      std::int64_t v = 0;
      const auto r = std::from_chars(s_.data() + i_, s_.data() + s_.size(), v);
      if (r.ec != std::errc() || v < 0) fail("bad shape");
      i_ = static_cast<std::size_t>(r.ptr - s_.data());
      out.push_back(v);
      skip();
      if (peek() == ',') ++i_;
      else if (peek() != ')') fail("bad shape");
    }
    return out;
  }
  element_type descr_type(const std::string& d) {
    if (d.size() == 3 && d[0] == '>' && d[2] != '1')
      throw input_error(name_, "big-endian data ('" + d + "') is not supported; save it little-endian");
    static const struct { const char* code; element_type type; } table[] = {
        {"u1", element_type::u8},  {"u2", element_type::u16}, {"u4", element_type::u32}, {"u8", element_type::u64},
        {"i1", element_type::i8},  {"i2", element_type::i16}, {"i4", element_type::i32}, {"i8", element_type::i64},
        {"f4", element_type::f32}, {"f8", element_type::f64}, {"b1", element_type::u8}};
    if (d.size() == 3 && (d[0] == '<' || d[0] == '|' || (d[0] == '>' && (d[2] == '1'))))
      for (const auto& row : table)
        if (d.compare(1, 2, row.code) == 0) return row.type;
    throw input_error(name_, "dtype '" + d + "' is not supported (u1..u8, i1..i8, f4, f8 little-endian, b1)");
  }

  std::string_view s_;
  const std::string& name_;
  std::size_t i_ = 0;
};

}  // namespace

namespace detail {

npy_header read_npy_header(std::string_view bytes, const std::string& name) {
  static constexpr char magic[] = "\x93NUMPY";
  if (bytes.size() < 10 || bytes.substr(0, 6) != std::string_view(magic, 6))
    throw input_error(name, "not a .npy file (no \\x93NUMPY magic)");
  const auto major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw input_error(name, "bad .npy header: truncated");
    for (int k = 3; k >= 0; --k) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + k]);
    start = 12;
  } else {
    throw input_error(name, "unsupported .npy version " + std::to_string(major));
  }
  if (bytes.size() < start + header_len) throw input_error(name, "bad .npy header: truncated");
  return npy_dict_parser(bytes.substr(start, header_len), name).parse(start + header_len, bytes.size());
}

number_array parse_npy(std::string_view bytes, const std::string& name, const std::optional<element_type>& type) {
  const npy_header h = read_npy_header(bytes, name);
  if (type && *type != h.type)
    throw input_error(name, std::string("the file holds ") + type_name(h.type) + ", not " + type_name(*type));
  return parse_binary(bytes.substr(h.data_offset), name, h.type);
}

}  // namespace detail
}  // namespace upsweep::apps
