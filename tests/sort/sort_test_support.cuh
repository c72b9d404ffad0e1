// Host pieces the radix sort tests share: the stable reference order of a bit window, a
// permutation, and the (group, score) struct key with its decomposers.
#pragma once

#include <upsweep/sort.cuh>

#include <cuda/std/tuple>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace upsweep::test {

using index_t = std::uint32_t;

// Input positions stably sorted by the key's ordered bits within [begin_bit, end_bit).
template <class Key>
std::vector<index_t> reference_order(const std::vector<Key>& keys, bool descending, int begin_bit, int end_bit) {
  std::vector<std::uint64_t> window(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    window[i] = descending ? upsweep::radix_window<true>(keys[i], begin_bit, end_bit)
                           : upsweep::radix_window<false>(keys[i], begin_bit, end_bit);
  std::vector<index_t> order(keys.size());
  std::iota(order.begin(), order.end(), index_t{0});
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return window[a] < window[b]; });
  return order;
}

// out[i] = in[order[i]].
template <class T>
std::vector<T> permuted(const std::vector<T>& in, const std::vector<index_t>& order) {
  std::vector<T> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = in[order[i]];
  return out;
}

// A struct key: group first, then score; id is not part of the key and rides along.
struct item {
  std::uint32_t group;
  float score;
  std::uint32_t id;
};

struct by_group_then_score {
  __host__ __device__ cuda::std::tuple<std::uint32_t&, float&> operator()(item& k) const { return {k.group, k.score}; }
};

// The same key through a by-value decomposer on a const key: also accepted.
struct by_group_then_score_values {
  __host__ __device__ cuda::std::tuple<std::uint32_t, float> operator()(const item& k) const {
    return {k.group, k.score};
  }
};

}  // namespace upsweep::test
