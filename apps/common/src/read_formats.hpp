// What the readers of read_numbers.cpp and read_npy.cpp share; not installed.
#pragma once

#include <upsweep/apps/numbers.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace upsweep::apps::detail {

struct npy_header {
  element_type type{};
  std::int64_t count = 0;
  std::size_t data_offset = 0;
};

// The bytes as items of `type` (a size that is not a multiple of it is an input_error).
number_array parse_binary(std::string_view bytes, const std::string& name, element_type type);

// The .npy header of `bytes` (input_error for a bad one), and the whole file as numbers (its type
// must be `type` when one is given).
npy_header read_npy_header(std::string_view bytes, const std::string& name);
number_array parse_npy(std::string_view bytes, const std::string& name, const std::optional<element_type>& type);

}  // namespace upsweep::apps::detail
