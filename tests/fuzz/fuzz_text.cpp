// libFuzzer target: the text reader (one number a line, `#` comments). The first byte picks the
// element type; the rest is the file. Whatever parses must read back to the same items after the
// text writer (no crash, no leak, no undefined behaviour, only input_error on bad input).
#include "fuzz_support.hpp"

#include <upsweep/apps/read_numbers.hpp>
#include <upsweep/apps/write_numbers.hpp>

using namespace upsweep::apps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  read_options options;
  options.format = file_format::text;
  options.type = upsweep::fuzz::type_from_byte(data[0]);
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  number_array items;
  try {
    items = parse_numbers(bytes, "fuzz.txt", options);
  } catch (const input_error&) {
    return 0;
  }
  const std::string written = format_numbers(items, file_format::text);
  const number_array again = parse_numbers(written, "written.txt", options);
  upsweep::fuzz::require(upsweep::fuzz::same_items(items, again), "text: write then read gives the items back");
  return 0;
}
