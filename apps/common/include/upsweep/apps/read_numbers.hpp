// Reading the tools' inputs: raw little-endian binary, .npy (1-D, C order), text (one value a
// line, `#` comments), or one column of a CSV. `-` is stdin. Numbers are parsed with
// std::from_chars (locale-free, exact), text and CSV on several threads; every problem is an
// input_error naming file, line and column (the first in the file when there are several). Empty
// input is a valid, empty result.
#pragma once

#include <upsweep/apps/numbers.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace upsweep::apps {

enum class file_format { binary, npy, text, csv };

const char* format_name(file_format format);
file_format parse_format_name(std::string_view name);  // throws std::invalid_argument
// From the extension: .npy, .csv, .txt/.text; anything else (and `-`) is `fallback`.
file_format format_from_path(const std::string& path, file_format fallback);

// Where the lines of a CSV lie in its bytes, for --pairs in upsweep-sort (whole rows follow their
// key): the header row, if there is one, and the row of every item, in input order. A span is a
// line without its newline (and without a trailing '\r').
struct text_span {
  std::size_t offset = 0, size = 0;
};
struct csv_layout {
  bool has_header = false;
  text_span header;
  std::vector<text_span> rows;  // rows[i] holds item i
};

struct read_options {
  file_format format = file_format::text;
  std::optional<element_type> type;  // required for binary, text and CSV; for .npy it must match the file if given
  std::string column;                // CSV: a header name, or a 0-based index; empty: the only column
  std::function<void(std::int64_t done, std::int64_t total)> progress;  // bytes read (total -1: unknown)
  csv_layout* layout = nullptr;      // CSV: filled with the rows' places when given
  unsigned parse_threads = 0;        // text and CSV: 0 is one thread for each 4 MiB, up to 16
};

// The whole file (or stdin for `-`) as bytes. Throws input_error with strerror's text.
std::string read_file_bytes(const std::string& path,
                            const std::function<void(std::int64_t, std::int64_t)>& progress = {});

// Parses `bytes` (the content of `name`, used in messages) as the format says.
number_array parse_numbers(std::string_view bytes, const std::string& name, const read_options& options);
number_array read_numbers(const std::string& path, const read_options& options);

// The element type stored in a .npy header (throws input_error for a bad header).
element_type npy_element_type(std::string_view bytes, const std::string& name);

// Parses one number of type `type` (whole token). Returns an empty string on success, otherwise
// the message ("invalid number 'abc'", "value 300 out of range for u8").
std::string parse_value(std::string_view token, element_type type, number_array& append_to);

}  // namespace upsweep::apps
