// Writers for binary, .npy, text and CSV outputs, through a temporary file renamed on success.
#include <upsweep/apps/write_numbers.hpp>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <sys/stat.h>
#include <unistd.h>

namespace upsweep::apps {
namespace {

const char* npy_descr(element_type type) {
  switch (type) {
    case element_type::u8: return "|u1";
    case element_type::u16: return "<u2";
    case element_type::u32: return "<u4";
    case element_type::u64: return "<u8";
    case element_type::i8: return "|i1";
    case element_type::i16: return "<i2";
    case element_type::i32: return "<i4";
    case element_type::i64: return "<i8";
    case element_type::f32: return "<f4";
    case element_type::f64: return "<f8";
  }
  return "";
}

// Version 1.0 header, padded with spaces so the data starts at a multiple of 64 bytes.
std::string npy_header(element_type type, std::int64_t n) {
  std::string dict = std::string("{'descr': '") + npy_descr(type) + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(n) + ",), }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

// Shortest text that reads back to the same value (std::to_chars), one value a line.
template <class T>
void append_values(std::string& out, const std::vector<T>& v) {
  char buffer[64];
  for (const T x : v) {
    std::to_chars_result r{};
    if constexpr (std::is_integral_v<T>) {
      r = std::to_chars(buffer, buffer + sizeof buffer, static_cast<std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>(x));
    } else {
      r = std::to_chars(buffer, buffer + sizeof buffer, x);
    }
    out.append(buffer, r.ptr);
    out += '\n';
  }
}

}  // namespace

std::string format_numbers(const number_array& data, file_format format, const std::string& column_name) {
  std::string out;
  std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        switch (format) {
          case file_format::npy:
            out = npy_header(element_type_of<T>(), static_cast<std::int64_t>(v.size()));
            [[fallthrough]];
          case file_format::binary:
            out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
            break;
          case file_format::csv:
            out = column_name + "\n";
            [[fallthrough]];
          case file_format::text:
            out.reserve(out.size() + v.size() * 8);
            append_values(out, v);
            break;
        }
      },
      data);
  return out;
}

void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& body) {
  if (path == "-") {
    body(stdout);
    if (std::fflush(stdout) != 0) throw input_error("<stdout>", std::strerror(errno));
    return;
  }
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "." + base + ".tmp.XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw input_error(path, std::strerror(errno));
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    const int saved = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    throw input_error(path, std::strerror(saved));
  }
  try {
    body(f);
    const bool failed = std::ferror(f) != 0;
    const int saved = errno;
    if (std::fclose(f) != 0 || failed) {
      f = nullptr;
      throw input_error(path, std::strerror(failed ? saved : errno));
    }
    f = nullptr;
    // mkstemp makes the file 0600; give the output the usual permissions (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(temp.c_str(), 0666 & ~mask);
    if (std::rename(temp.c_str(), path.c_str()) != 0) throw input_error(path, std::strerror(errno));
  } catch (...) {
    if (f) std::fclose(f);
    ::unlink(temp.c_str());
    throw;
  }
}

void write_numbers(const std::string& path, const number_array& data, file_format format, const std::string& column_name) {
  const std::string bytes = format_numbers(data, format, column_name);
  write_file_atomically(path, [&](std::FILE* f) {
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size())
      throw input_error(path == "-" ? "<stdout>" : path, std::strerror(errno));
  });
}

}  // namespace upsweep::apps
