// upsweep-sort's reference: cub::DeviceRadixSort, the same order as Upsweep's sort (stable,
// -0.0 == +0.0, NaNs by bit pattern, bit windows over the ordered bits).
#pragma once

#include "sort_backends.hpp"

#include <cub/device/device_radix_sort.cuh>

#include <type_traits>

namespace upsweep::apps {

template <class Key, class Value>
cudaError_t sort_with_cub(void* d_temp, std::size_t& temp_bytes, const sort_call<Key, Value>& c) {
  using radix = cub::DeviceRadixSort;
  if constexpr (std::is_same_v<Value, no_index>) {
    return c.descending ? radix::SortKeysDescending(d_temp, temp_bytes, c.keys_in, c.keys_out, c.num_items,
                                                    c.begin_bit, c.end_bit)
                        : radix::SortKeys(d_temp, temp_bytes, c.keys_in, c.keys_out, c.num_items, c.begin_bit,
                                          c.end_bit);
  } else {
    return c.descending ? radix::SortPairsDescending(d_temp, temp_bytes, c.keys_in, c.keys_out, c.values_in,
                                                     c.values_out, c.num_items, c.begin_bit, c.end_bit)
                        : radix::SortPairs(d_temp, temp_bytes, c.keys_in, c.keys_out, c.values_in, c.values_out,
                                           c.num_items, c.begin_bit, c.end_bit);
  }
}

#define UPSWEEP_SORT_TOOL_INSTANTIATE(Key)                                                                      \
  template cudaError_t sort_with_cub<Key, no_index>(void*, std::size_t&, const sort_call<Key, no_index>&);      \
  template cudaError_t sort_with_cub<Key, std::uint32_t>(void*, std::size_t&, const sort_call<Key, std::uint32_t>&); \
  template cudaError_t sort_with_cub<Key, std::uint64_t>(void*, std::size_t&, const sort_call<Key, std::uint64_t>&);

}  // namespace upsweep::apps
