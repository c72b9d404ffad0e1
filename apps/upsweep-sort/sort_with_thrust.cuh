// upsweep-sort --algo thrust: thrust::stable_sort and stable_sort_by_key with less or greater,
// which Thrust sends to CUB's radix sort for arithmetic keys; temporaries from the block cache.
#pragma once

#include "sort_backends.hpp"

#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>

#include <cstddef>
#include <type_traits>

namespace upsweep::apps {

struct cached_thrust_allocator {
  using value_type = char;
  device_block_cache* cache;
  char* allocate(std::ptrdiff_t bytes) { return static_cast<char*>(cache->get(static_cast<std::size_t>(bytes))); }
  void deallocate(char* ptr, std::size_t) { cache->put(ptr); }
};

template <class Key, class Value>
void sort_with_thrust(const sort_call<Key, Value>& c, device_block_cache& cache) {
  cached_thrust_allocator alloc{&cache};
  const auto policy = thrust::cuda::par(alloc);
  Key* first = c.keys_out;
  Key* last = c.keys_out + c.num_items;
  if constexpr (std::is_same_v<Value, no_index>) {
    if (c.descending) thrust::stable_sort(policy, first, last, thrust::greater<Key>());
    else thrust::stable_sort(policy, first, last, thrust::less<Key>());
  } else {
    if (c.descending) thrust::stable_sort_by_key(policy, first, last, c.values_out, thrust::greater<Key>());
    else thrust::stable_sort_by_key(policy, first, last, c.values_out, thrust::less<Key>());
  }
}

#define UPSWEEP_SORT_TOOL_INSTANTIATE(Key)                                                               \
  template void sort_with_thrust<Key, no_index>(const sort_call<Key, no_index>&, device_block_cache&);   \
  template void sort_with_thrust<Key, std::uint32_t>(const sort_call<Key, std::uint32_t>&, device_block_cache&); \
  template void sort_with_thrust<Key, std::uint64_t>(const sort_call<Key, std::uint64_t>&, device_block_cache&);

}  // namespace upsweep::apps
