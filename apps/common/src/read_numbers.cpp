// Readers for binary, text and CSV inputs (.npy in read_npy.cpp). The whole input is read into memory first, then
// parsed, text and CSV on several threads (parse_pieces.hpp); each format reports its own problems with file, line
// and column.
#include <upsweep/apps/read_numbers.hpp>

#include "parse_pieces.hpp"
#include "read_formats.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <sys/stat.h>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "binary and .npy I/O assume a little-endian host");

namespace upsweep::apps {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

template <class T>
std::string parse_one(std::string_view token, std::vector<T>& out) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (first != last && *first == '+' && last - first > 1 && first[1] != '-') ++first;  // from_chars rejects '+'
  T value{};
  std::from_chars_result r{};
  if constexpr (std::is_integral_v<T>) {
    r = std::from_chars(first, last, value, 10);
  } else {
    r = std::from_chars(first, last, value, std::chars_format::general);
  }
  const auto out_of_range = [&] {
    return "value " + std::string(token) + " out of range for " + type_name(element_type_of<T>());
  };
  if (r.ec == std::errc::result_out_of_range && r.ptr == last) return out_of_range();
  if (r.ec != std::errc() || r.ptr != last) {
    if constexpr (std::is_unsigned_v<T>) {
      // A well-formed negative integer is out of range for an unsigned type, not malformed.
      long long probe = 0;
      const auto neg = std::from_chars(first, last, probe, 10);
      if (first != last && *first == '-' && neg.ptr == last && neg.ec != std::errc::invalid_argument) {
        if (neg.ec == std::errc() && probe == 0) {
          out.push_back(T(0));  // "-0"
          return {};
        }
        return out_of_range();
      }
    }
    return "invalid number '" + std::string(token) + "'";
  }
  out.push_back(value);
  return {};
}

// One line of text: its 1-based number (in the piece being read) and its content without the newline.
struct line_cursor {
  std::string_view rest;
  bool file_start = false;  // `rest` starts the file: a byte order mark there is skipped
  std::int64_t number = 0;
  bool next(std::string_view& line) {
    if (rest.empty()) return false;
    const std::size_t end = rest.find('\n');
    line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";  // spreadsheets start UTF-8 files with it
    if (file_start && number == 0 && line.substr(0, byte_order_mark.size()) == byte_order_mark)
      line.remove_prefix(byte_order_mark.size());
    ++number;
    return true;
  }
};

// Strips a `#` comment and surrounding blanks; `offset` gets the index of the first kept character.
std::string_view strip(std::string_view line, std::size_t& offset) {
  line = line.substr(0, line.find('#'));
  std::size_t b = 0;
  while (b < line.size() && is_blank(line[b])) ++b;
  std::size_t e = line.size();
  while (e > b && is_blank(line[e - 1])) --e;
  offset = b;
  return line.substr(b, e - b);
}

number_array parse_text_piece(std::string_view piece, bool file_start, const std::string& name, element_type type) {
  number_array out = make_array(type);
  line_cursor lines{piece, file_start};
  std::string_view line;
  while (lines.next(line)) {
    std::size_t offset = 0;
    const std::string_view token = strip(line, offset);
    if (token.empty()) continue;
    const std::string error = parse_value(token, type, out);
    if (!error.empty()) throw input_error(name, lines.number, static_cast<std::int64_t>(offset) + 1, error);
  }
  return out;
}

number_array parse_text(std::string_view bytes, const std::string& name, const read_options& options) {
  const detail::piece_plan plan = detail::plan_pieces(bytes.size(), options.parse_threads);
  auto parts = detail::parse_pieces<number_array>(
      bytes, detail::split_at_lines(bytes, plan.pieces), plan.threads, options.progress,
      [&](std::string_view piece) { return parse_text_piece(piece, piece.data() == bytes.data(), name, *options.type); });
  return detail::concatenate(parts, *options.type);
}

struct csv_field {
  std::string text;
  std::size_t column;  // 0-based byte offset of the value in the line
};

std::vector<csv_field> split_csv(std::string_view line, const std::string& name, std::int64_t line_number) {
  std::vector<csv_field> fields;
  std::size_t i = 0;
  for (;;) {
    while (i < line.size() && is_blank(line[i])) ++i;
    csv_field field{{}, i};
    if (i < line.size() && line[i] == '"') {
      field.column = i + 1;
      ++i;
      for (;;) {
        if (i >= line.size())
          throw input_error(name, line_number, static_cast<std::int64_t>(field.column), "unterminated quoted field");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field.text += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.text += line[i++];
      }
      while (i < line.size() && is_blank(line[i])) ++i;
      if (i < line.size() && line[i] != ',')
        throw input_error(name, line_number, static_cast<std::int64_t>(i) + 1, "text after a quoted field");
    } else {
      const std::size_t end = std::min(line.find(',', i), line.size());
      std::size_t e = end;
      while (e > i && is_blank(line[e - 1])) --e;
      field.text = std::string(line.substr(i, e - i));
      i = end;
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

bool looks_numeric(const std::string& s) {
  double d;
  const char* first = s.data();
  const char* last = first + s.size();
  if (first != last && *first == '+') ++first;
  const auto r = std::from_chars(first, last, d);
  return r.ptr == last && (r.ec == std::errc() || r.ec == std::errc::result_out_of_range);
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string joined(const std::vector<csv_field>& fields) {
  std::string s;
  for (const auto& f : fields) s += (s.empty() ? "" : ", ") + f.text;
  return s;
}

// The column to read, found in the first row (a header, or the first data row); `data` gets the
// bytes from the first data row on.
struct csv_head {
  std::size_t index = 0;
  std::string_view data;
};

bool is_blank_or_comment(std::string_view line) {
  std::size_t offset = 0;
  return strip(line, offset).empty() || line[offset] == '#';
}

std::string_view without_trailing_blanks(std::string_view line) {
  while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
  return line;
}

text_span span_in(std::string_view whole, std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return text_span{static_cast<std::size_t>(line.data() - whole.data()), line.size()};
}

std::size_t column_index(const std::vector<csv_field>& fields, bool header, const std::string& column,
                         const std::string& name, std::int64_t line_number) {
  if (column.empty()) {
    if (fields.size() != 1)
      throw input_error(name, line_number, 0, std::to_string(fields.size()) + " columns; choose one with --column NAME|INDEX");
    return 0;
  }
  const auto named = std::find_if(fields.begin(), fields.end(), [&](const csv_field& f) { return f.text == column; });
  if (header && named != fields.end()) return static_cast<std::size_t>(named - fields.begin());
  if (all_digits(column)) {
    // from_chars, not stoul: an index past size_t is out of range like any other, not an
    // uncaught std::out_of_range (found by fuzzing).
    std::size_t index = 0;
    const auto parsed = std::from_chars(column.data(), column.data() + column.size(), index);
    if (parsed.ec != std::errc() || index >= fields.size())
      throw input_error(name, line_number, 0,
                        "column index " + column + " out of range (" + std::to_string(fields.size()) +
                            " columns, counted from 0)");
    return index;
  }
  if (header) throw input_error(name, line_number, 0, "no column '" + column + "' (columns: " + joined(fields) + ")");
  throw input_error(name, line_number, 0, "column '" + column + "' given by name but the file has no header row");
}

csv_head read_csv_head(std::string_view bytes, const std::string& name, const std::string& column, csv_layout* layout) {
  line_cursor lines{bytes, true};
  std::string_view raw;
  for (std::string_view line_start = lines.rest; lines.next(raw); line_start = lines.rest) {
    const std::string_view line = without_trailing_blanks(raw);
    if (is_blank_or_comment(line)) continue;
    const auto fields = split_csv(line, name, lines.number);
    // A header is a first row with a field that is not a number.
    const bool header = std::any_of(fields.begin(), fields.end(),
                                    [](const csv_field& f) { return !f.text.empty() && !looks_numeric(f.text); });
    csv_head head{column_index(fields, header, column, name, lines.number), header ? lines.rest : line_start};
    if (header && layout) {
      layout->has_header = true;
      layout->header = span_in(bytes, raw);
    }
    return head;
  }
  return {};
}

struct csv_part {
  number_array values;
  std::vector<text_span> rows;
};

csv_part parse_csv_rows(std::string_view piece, std::string_view whole, const std::string& name, element_type type,
                        std::size_t index, bool keep_rows) {
  csv_part part{make_array(type), {}};
  line_cursor lines{piece, piece.data() == whole.data()};
  std::string_view raw;
  while (lines.next(raw)) {
    const std::string_view line = without_trailing_blanks(raw);
    if (is_blank_or_comment(line)) continue;
    const auto fields = split_csv(line, name, lines.number);
    if (index >= fields.size())
      throw input_error(name, lines.number, static_cast<std::int64_t>(line.size()) + 1,
                        "row has " + std::to_string(fields.size()) + " fields; column " + std::to_string(index) +
                            " (counted from 0) is missing");
    const csv_field& f = fields[index];
    const std::string error = f.text.empty() ? std::string("empty field") : parse_value(f.text, type, part.values);
    if (!error.empty()) throw input_error(name, lines.number, static_cast<std::int64_t>(f.column) + 1, error);
    if (keep_rows) part.rows.push_back(span_in(whole, raw));
  }
  return part;
}

number_array parse_csv(std::string_view bytes, const std::string& name, const read_options& options) {
  const element_type type = *options.type;
  csv_layout* layout = options.layout;
  if (layout) *layout = csv_layout{};
  const csv_head head = read_csv_head(bytes, name, options.column, layout);
  const detail::piece_plan plan = detail::plan_pieces(head.data.size(), options.parse_threads);
  auto parts = detail::parse_pieces<csv_part>(
      bytes, detail::split_at_lines(head.data, plan.pieces), plan.threads, options.progress,
      [&](std::string_view piece) { return parse_csv_rows(piece, bytes, name, type, head.index, layout != nullptr); });
  std::vector<number_array> values;
  values.reserve(parts.size());
  for (csv_part& part : parts) {
    values.push_back(std::move(part.values));
    if (layout) layout->rows.insert(layout->rows.end(), part.rows.begin(), part.rows.end());
  }
  return detail::concatenate(values, type);
}

}  // namespace

namespace detail {

number_array parse_binary(std::string_view bytes, const std::string& name, element_type type) {
  const std::size_t size = type_size(type);
  if (bytes.size() % size != 0)
    throw input_error(name, "size " + std::to_string(bytes.size()) + " bytes is not a multiple of " +
                                std::to_string(size) + " (" + type_name(type) + ")");
  number_array out = make_array(type, bytes.size() / size);
  std::visit([&](auto& v) { if (!bytes.empty()) std::memcpy(v.data(), bytes.data(), bytes.size()); }, out);
  return out;
}

}  // namespace detail

const char* format_name(file_format format) {
  switch (format) {
    case file_format::binary: return "binary";
    case file_format::npy: return "npy";
    case file_format::text: return "text";
    case file_format::csv: return "csv";
  }
  return "?";
}

file_format parse_format_name(std::string_view name) {
  for (auto f : {file_format::binary, file_format::npy, file_format::text, file_format::csv})
    if (name == format_name(f)) return f;
  throw std::invalid_argument("unknown format '" + std::string(name) + "' (binary, npy, text, csv)");
}

file_format format_from_path(const std::string& path, file_format fallback) {
  const auto ends_with = [&](std::string_view ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends_with(".npy")) return file_format::npy;
  if (ends_with(".csv")) return file_format::csv;
  if (ends_with(".txt") || ends_with(".text")) return file_format::text;
  if (ends_with(".bin") || ends_with(".raw")) return file_format::binary;
  return fallback;
}

std::string parse_value(std::string_view token, element_type type, number_array& append_to) {
  if (type_of(append_to) != type) throw std::logic_error("parse_value: array of the wrong type");
  return std::visit([&](auto& v) { return parse_one(token, v); }, append_to);
}

std::string read_file_bytes(const std::string& path, const std::function<void(std::int64_t, std::int64_t)>& progress) {
  const bool is_stdin = path == "-";
  const std::string name = is_stdin ? "<stdin>" : path;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(nullptr, &std::fclose);
  std::FILE* f = stdin;
  std::int64_t total = -1;
  if (!is_stdin) {
    owned.reset(std::fopen(path.c_str(), "rb"));
    if (!owned) throw input_error(name, std::strerror(errno));
    f = owned.get();
    struct stat info {};
    if (::fstat(::fileno(f), &info) != 0) throw input_error(name, std::strerror(errno));
    if (S_ISDIR(info.st_mode)) throw input_error(name, std::strerror(EISDIR));  // fopen opens a directory
    if (S_ISREG(info.st_mode)) total = static_cast<std::int64_t>(info.st_size);  // pipes and devices: unknown
  }
  std::string bytes;
  if (total > 0) bytes.reserve(static_cast<std::size_t>(total));
  constexpr std::size_t chunk = std::size_t{16} << 20;
  std::vector<char> buffer(chunk);
  for (;;) {
    const std::size_t got = std::fread(buffer.data(), 1, chunk, f);
    bytes.append(buffer.data(), got);
    if (progress) progress(static_cast<std::int64_t>(bytes.size()), total);
    if (got < chunk) {
      if (std::ferror(f)) throw input_error(name, std::strerror(errno));
      break;
    }
  }
  return bytes;
}

element_type npy_element_type(std::string_view bytes, const std::string& name) {
  return detail::read_npy_header(bytes, name).type;
}

number_array parse_numbers(std::string_view bytes, const std::string& name, const read_options& options) {
  if (options.format == file_format::npy) return detail::parse_npy(bytes, name, options.type);
  if (!options.type) throw std::logic_error("parse_numbers: a type is needed for " + std::string(format_name(options.format)));
  switch (options.format) {
    case file_format::binary: return detail::parse_binary(bytes, name, *options.type);
    case file_format::text: return parse_text(bytes, name, options);
    case file_format::csv: return parse_csv(bytes, name, options);
    case file_format::npy: break;
  }
  return {};
}

number_array read_numbers(const std::string& path, const read_options& options) {
  const std::string bytes = read_file_bytes(path, options.progress);
  return parse_numbers(bytes, path == "-" ? "<stdin>" : path, options);
}

}  // namespace upsweep::apps
