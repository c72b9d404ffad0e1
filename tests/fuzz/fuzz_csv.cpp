// libFuzzer target: the CSV column reader. The first byte picks the element type, the text up to
// the first newline is --column (a name, an index or empty), the rest is the file. Whatever
// parses must give one row span per item inside the input, and read back to the same items
// after the CSV writer.
#include "fuzz_support.hpp"

#include <upsweep/apps/read_numbers.hpp>
#include <upsweep/apps/write_numbers.hpp>

using namespace upsweep::apps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t newline = rest.find('\n');
  read_options options;
  options.format = file_format::csv;
  options.type = upsweep::fuzz::type_from_byte(data[0]);
  if (newline != std::string_view::npos) {
    options.column = std::string(rest.substr(0, newline));
    rest.remove_prefix(newline + 1);
  }
  csv_layout layout;
  options.layout = &layout;
  number_array items;
  try {
    items = parse_numbers(rest, "fuzz.csv", options);
  } catch (const input_error&) {
    return 0;
  }
  using upsweep::fuzz::require;
  require(layout.rows.size() == static_cast<std::size_t>(size_of(items)), "csv: one row span per item");
  for (const text_span& row : layout.rows)
    require(row.offset <= rest.size() && row.size <= rest.size() - row.offset, "csv: row spans lie in the input");
  if (layout.has_header)
    require(layout.header.offset <= rest.size() && layout.header.size <= rest.size() - layout.header.offset,
            "csv: the header span lies in the input");

  read_options again_options;
  again_options.format = file_format::csv;
  again_options.type = options.type;
  again_options.column = "value";
  const number_array again = parse_numbers(format_numbers(items, file_format::csv, "value"), "written.csv", again_options);
  require(upsweep::fuzz::same_items(items, again), "csv: write then read gives the items back");
  return 0;
}
