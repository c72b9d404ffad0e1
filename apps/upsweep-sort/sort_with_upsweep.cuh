// upsweep-sort's call into the library under test: the core layer of device_radix_sort.
#pragma once

#include "sort_backends.hpp"

#include <upsweep/sort/device_radix_sort.cuh>

#include <type_traits>

namespace upsweep::apps {

template <class Key, class Value>
cudaError_t sort_with_upsweep(void* d_temp, std::size_t& temp_bytes, const sort_call<Key, Value>& c) {
  if constexpr (std::is_same_v<Value, no_index>) {
    return c.descending ? upsweep::sort_keys_descending(d_temp, temp_bytes, c.keys_in, c.keys_out, c.num_items,
                                                        c.begin_bit, c.end_bit)
                        : upsweep::sort_keys(d_temp, temp_bytes, c.keys_in, c.keys_out, c.num_items, c.begin_bit,
                                             c.end_bit);
  } else {
    return c.descending ? upsweep::sort_pairs_descending(d_temp, temp_bytes, c.keys_in, c.keys_out, c.values_in,
                                                         c.values_out, c.num_items, c.begin_bit, c.end_bit)
                        : upsweep::sort_pairs(d_temp, temp_bytes, c.keys_in, c.keys_out, c.values_in, c.values_out,
                                              c.num_items, c.begin_bit, c.end_bit);
  }
}

#define UPSWEEP_SORT_TOOL_INSTANTIATE(Key)                                                                          \
  template cudaError_t sort_with_upsweep<Key, no_index>(void*, std::size_t&, const sort_call<Key, no_index>&);      \
  template cudaError_t sort_with_upsweep<Key, std::uint32_t>(void*, std::size_t&, const sort_call<Key, std::uint32_t>&); \
  template cudaError_t sort_with_upsweep<Key, std::uint64_t>(void*, std::size_t&, const sort_call<Key, std::uint64_t>&);

}  // namespace upsweep::apps
