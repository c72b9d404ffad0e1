// upsweep-sort's call into the sort across ranks: the core layer of dist_radix_sort.
#pragma once

#include "sort_dist_backend.hpp"

#include <upsweep/sort/dist_radix_sort.cuh>

#include <type_traits>

namespace upsweep::apps {

template <class Key, class Value>
cudaError_t dist_sort_with_upsweep(void* d_temp, std::size_t& temp_bytes, upsweep::dist_exchange& exchange,
                                   const dist_sort_call<Key, Value>& c) {
  const sort_call<Key, Value>& in = c.slice;
  const upsweep::dist_sort_phases phases{c.phases.sorted, c.phases.planned, c.phases.exchanged, c.phases.merged};
  upsweep::dist_sort_options options;
  options.begin_bit = in.begin_bit;
  options.end_bit = in.end_bit;
  options.phases = &phases;  // read only during the call
  if constexpr (std::is_same_v<Value, no_index>) {
    return in.descending
               ? upsweep::dist_sort_keys_descending(d_temp, temp_bytes, exchange, in.keys_in, in.keys_out,
                                                    in.num_items, c.out_capacity, c.num_out, options, c.stream)
               : upsweep::dist_sort_keys(d_temp, temp_bytes, exchange, in.keys_in, in.keys_out, in.num_items,
                                         c.out_capacity, c.num_out, options, c.stream);
  } else {
    return in.descending
               ? upsweep::dist_sort_pairs_descending(d_temp, temp_bytes, exchange, in.keys_in, in.keys_out,
                                                     in.values_in, in.values_out, in.num_items, c.out_capacity,
                                                     c.num_out, options, c.stream)
               : upsweep::dist_sort_pairs(d_temp, temp_bytes, exchange, in.keys_in, in.keys_out, in.values_in,
                                          in.values_out, in.num_items, c.out_capacity, c.num_out, options, c.stream);
  }
}

#define UPSWEEP_SORT_TOOL_INSTANTIATE(Key)                                                                       \
  template cudaError_t dist_sort_with_upsweep<Key, no_index>(void*, std::size_t&, upsweep::dist_exchange&,       \
                                                             const dist_sort_call<Key, no_index>&);              \
  template cudaError_t dist_sort_with_upsweep<Key, std::uint32_t>(void*, std::size_t&, upsweep::dist_exchange&,  \
                                                                  const dist_sort_call<Key, std::uint32_t>&);    \
  template cudaError_t dist_sort_with_upsweep<Key, std::uint64_t>(void*, std::size_t&, upsweep::dist_exchange&,  \
                                                                  const dist_sort_call<Key, std::uint64_t>&);

}  // namespace upsweep::apps
