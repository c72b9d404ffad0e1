// Writers for binary, .npy, text and CSV outputs (and upsweep-sort's pairs and CSV rows), through a
// temporary file renamed on success; large outputs are formatted and written a chunk at a time.
#include <upsweep/apps/write_numbers.hpp>

#include <upsweep/apps/file_io.hpp>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
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

// Shortest text that reads back to the same value (std::to_chars).
template <class T>
void append_value(std::string& out, T x) {
  char buffer[64];
  std::to_chars_result r{};
  if constexpr (std::is_integral_v<T>) {
    r = std::to_chars(buffer, buffer + sizeof buffer,
                      static_cast<std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>(x));
  } else {
    r = std::to_chars(buffer, buffer + sizeof buffer, x);
  }
  out.append(buffer, r.ptr);
}

// Items are formatted and handed to `emit` this many at a time, so a large output needs no second
// copy in memory and the progress bar moves.
constexpr std::size_t chunk_items = std::size_t{1} << 20;

using emit_fn = std::function<void(std::string_view)>;

void report(const progress_fn& progress, std::size_t done, std::size_t total) {
  if (progress) progress(static_cast<std::int64_t>(done), static_cast<std::int64_t>(total));
}

void emit_numbers(const number_array& data, file_format format, const std::string& column_name, const emit_fn& emit,
                  const progress_fn& progress) {
  std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        if (format == file_format::npy) emit(npy_header(element_type_of<T>(), static_cast<std::int64_t>(v.size())));
        if (format == file_format::csv) emit(column_name + "\n");
        std::string text;
        for (std::size_t first = 0; first < v.size(); first += chunk_items) {
          const std::size_t last = std::min(v.size(), first + chunk_items);
          if (format == file_format::binary || format == file_format::npy) {
            emit(std::string_view(reinterpret_cast<const char*>(v.data() + first), (last - first) * sizeof(T)));
          } else {
            text.clear();
            for (std::size_t i = first; i < last; ++i) {
              append_value(text, v[i]);
              text += '\n';
            }
            emit(text);
          }
          report(progress, last, v.size());
        }
      },
      data);
}

std::vector<std::uint64_t> widened(const number_array& indices) {
  return std::visit(
      [](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (!std::is_integral_v<T>) {
          throw std::logic_error("indices must be integers");
          return std::vector<std::uint64_t>{};
        } else {
          return std::vector<std::uint64_t>(v.begin(), v.end());
        }
      },
      indices);
}

std::uint64_t index_at(const number_array& indices, std::size_t i) {
  return std::visit(
      [i](const auto& v) -> std::uint64_t {
        using T = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (std::is_integral_v<T>) return static_cast<std::uint64_t>(v[i]);
        else throw std::logic_error("indices must be integers");
      },
      indices);
}

// Writes through write_file_atomically, `emit` going to the file.
void write_emitted(const std::string& path, const std::function<void(const emit_fn&)>& produce) {
  write_file_atomically(path, [&](std::FILE* f) {
    produce([&](std::string_view bytes) {
      if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size())
        throw input_error(path == "-" ? "<stdout>" : path, std::strerror(errno));
    });
  });
}

}  // namespace

std::string format_numbers(const number_array& data, file_format format, const std::string& column_name) {
  std::string out;
  emit_numbers(data, format, column_name, [&](std::string_view bytes) { out.append(bytes); }, {});
  return out;
}

std::string index_path(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == (slash == std::string::npos ? 0 : slash + 1))
    return path + ".index";
  return path.substr(0, dot) + ".index" + path.substr(dot);
}

std::string format_pairs(const number_array& keys, const number_array& indices, file_format format,
                         const std::string& key_name, const progress_fn& progress) {
  if (format != file_format::csv && format != file_format::text)
    throw std::logic_error("format_pairs: binary and .npy pairs are two files");
  if (size_of(keys) != size_of(indices)) throw std::logic_error("format_pairs: as many indices as keys");
  std::string out;
  if (format == file_format::csv) out = key_name + ",index\n";
  const char separator = format == file_format::csv ? ',' : ' ';
  std::visit(
      [&](const auto& v) {
        for (std::size_t i = 0; i < v.size(); ++i) {
          append_value(out, v[i]);
          out += separator;
          append_value(out, index_at(indices, i));
          out += '\n';
          if ((i + 1) % chunk_items == 0) report(progress, i + 1, v.size());
        }
        report(progress, v.size(), v.size());
      },
      keys);
  return out;
}

void write_pairs(const std::string& path, const number_array& keys, const number_array& indices, file_format format,
                 const std::string& key_name, const progress_fn& progress) {
  if (format == file_format::csv || format == file_format::text) {
    const std::string bytes = format_pairs(keys, indices, format, key_name, progress);
    write_emitted(path, [&](const emit_fn& emit) { emit(bytes); });
    return;
  }
  if (path == "-") throw input_error("<stdout>", "binary and .npy pairs are two files (keys and indices); give --output FILE");
  const number_array wide(widened(indices));
  write_numbers(index_path(path), wide, format, "index");
  write_numbers(path, keys, format, key_name, progress);
}

void write_csv_rows(const std::string& path, std::string_view bytes, const csv_layout& layout, const number_array& order,
                    const progress_fn& progress) {
  const std::size_t n = layout.rows.size();
  if (static_cast<std::size_t>(size_of(order)) != n) throw std::logic_error("write_csv_rows: one index a row");
  write_emitted(path, [&](const emit_fn& emit) {
    std::string text;
    if (layout.has_header) {
      text.append(bytes.substr(layout.header.offset, layout.header.size));
      text += '\n';
    }
    for (std::size_t i = 0; i < n; ++i) {
      const text_span row = layout.rows[index_at(order, i)];
      text.append(bytes.substr(row.offset, row.size));
      text += '\n';
      if (text.size() >= (std::size_t{16} << 20) || i + 1 == n) {
        emit(text);
        text.clear();
        report(progress, i + 1, n);
      }
    }
    if (!text.empty()) emit(text);
  });
}

void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& body) {
  if (path == "-") {
    body(stdout);
    if (std::fflush(stdout) != 0) throw input_error("<stdout>", std::strerror(errno));
    return;
  }
  std::string temp;
  const int fd = create_temp_beside(path, temp);
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
    publish_temp(temp, path);
  } catch (...) {
    if (f) std::fclose(f);
    ::unlink(temp.c_str());
    throw;
  }
}

void write_numbers(const std::string& path, const number_array& data, file_format format, const std::string& column_name,
                   const progress_fn& progress) {
  if (format == file_format::binary && path != "-") {  // the array's bytes as they are, by several threads
    std::visit(
        [&](const auto& v) {
          const auto items = [&](std::int64_t done, std::int64_t) {  // progress counts items, as elsewhere
            report(progress, static_cast<std::size_t>(done) / sizeof(v[0]), v.size());
          };
          write_file_bytes_atomically(path, v.data(), v.size() * sizeof(v[0]), items);
        },
        data);
    return;
  }
  write_emitted(path, [&](const emit_fn& emit) { emit_numbers(data, format, column_name, emit, progress); });
}

}  // namespace upsweep::apps
