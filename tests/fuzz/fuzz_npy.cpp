// libFuzzer target: the .npy reader (header dictionary, versions 1 to 3, 1-D little-endian). The
// input is the file. Whatever parses must hold exactly the data bytes after the header, and read
// back bit for bit after the .npy writer.
#include "fuzz_support.hpp"

#include <upsweep/apps/read_numbers.hpp>
#include <upsweep/apps/write_numbers.hpp>

using namespace upsweep::apps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  read_options options;
  options.format = file_format::npy;
  number_array items;
  try {
    items = parse_numbers(bytes, "fuzz.npy", options);
  } catch (const input_error&) {
    return 0;
  }
  using upsweep::fuzz::require;
  const element_type type = npy_element_type(bytes, "fuzz.npy");
  require(type == type_of(items), "npy: the header's type is the items' type");
  const std::size_t data_bytes = static_cast<std::size_t>(size_of(items)) * type_size(type);
  require(data_bytes <= size, "npy: the items fit in the file");
  const number_array again = parse_numbers(format_numbers(items, file_format::npy), "written.npy", options);
  require(upsweep::fuzz::same_items(items, again), "npy: write then read gives the items back");
  return 0;
}
