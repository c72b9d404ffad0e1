// Shared by the host-to-host sort tests: host arrays pinned or pageable, key shapes that defeat a
// one-digit bucketing, the stable host order, and budgets that keep small sizes out of core.
#pragma once

#include "../scan/scan_test_support.cuh"
#include "sort_test_support.cuh"

#include <upsweep/sort/host_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace upsweep::test {

// Host memory of n items, pinned or pageable, poisoned.
template <class T>
class host_array {
 public:
  host_array(std::int64_t n, bool pinned) : n_(n), pinned_(pinned) {
    const std::size_t bytes = static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(T);
    if (pinned) {
      if (cudaMallocHost(reinterpret_cast<void**>(&data_), bytes) != cudaSuccess) data_ = nullptr;
    } else {
      data_ = static_cast<T*>(std::malloc(bytes));
    }
    if (data_ != nullptr) std::memset(static_cast<void*>(data_), poison_byte, bytes);
  }
  ~host_array() {
    if (pinned_) cudaFreeHost(data_);
    else std::free(data_);
  }
  host_array(const host_array&) = delete;
  host_array& operator=(const host_array&) = delete;
  T* data() const { return data_; }
  std::vector<T> to_vector() const { return std::vector<T>(data_, data_ + n_); }
  void assign(const std::vector<T>& v) { std::memcpy(static_cast<void*>(data_), v.data(), v.size() * sizeof(T)); }

 private:
  std::int64_t n_;
  bool pinned_;
  T* data_ = nullptr;
};

enum class keys_shape { random, all_equal, one_top_digit, one_prefix16, two_values, floats_special };

template <class Key>
std::vector<Key> make_keys(std::int64_t n, std::uint64_t seed, keys_shape shape) {
  using bits_t = typename upsweep::radix_traits<Key>::bits_t;
  constexpr int bits = upsweep::radix_traits<Key>::key_bits;
  std::vector<Key> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t r = mix64(seed ^ mix64(static_cast<std::uint64_t>(i)));
    switch (shape) {
      case keys_shape::all_equal: r = seed; break;
      case keys_shape::one_top_digit: r = (r >> 8) | (std::uint64_t{0xA7} << 56); break;
      case keys_shape::one_prefix16: r = (r >> 16) | (std::uint64_t{0x5A3C} << 48); break;
      case keys_shape::two_values: r = (r & 1) ? seed : ~seed; break;
      case keys_shape::floats_special: {
        const std::uint64_t pick = r % 8;
        if (pick == 0) r = std::uint64_t{1} << 63;                  // -0.0
        else if (pick == 1) r = 0;                                  // +0.0
        else if (pick == 2) r = ~std::uint64_t{0};                  // -NaN
        else if (pick == 3) r = ~std::uint64_t{0} >> 1;             // +NaN
        break;
      }
      default: break;
    }
    keys[static_cast<std::size_t>(i)] = upsweep::radix_traits<Key>::from_bits(static_cast<bits_t>(r >> (64 - bits)));
  }
  return keys;
}

// The stable order of the window values, as reference_order gives it, by sorting (window, index)
// pairs in memory order: comparisons through an index array miss the cache at these sizes.
template <class Key>
std::vector<index_t> stable_window_order(const std::vector<Key>& keys, bool descending, int begin_bit, int end_bit) {
  std::vector<std::pair<std::uint64_t, index_t>> tagged(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    tagged[i] = {descending ? upsweep::radix_window<true>(keys[i], begin_bit, end_bit)
                            : upsweep::radix_window<false>(keys[i], begin_bit, end_bit),
                 static_cast<index_t>(i)};
  std::sort(tagged.begin(), tagged.end());  // the index breaks ties: stable
  std::vector<index_t> order(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) order[i] = tagged[i].second;
  return order;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Test sizes under the sanitizers' cap, but never below what still makes several chunks of the
// smallest slot (2^16 items): out of core needs them.
inline std::int64_t out_of_core_items(std::int64_t wanted) { return std::max<std::int64_t>(max_test_items(wanted), 1 << 19); }

// `wanted` bytes, or the smallest budget the query accepts for n items of Key and Value if that
// is more (a slot of 2^16 items at least): small test sizes keep their chunked path.
template <class Key, class Value = std::uint32_t>
std::size_t workable_budget(std::int64_t n, std::size_t wanted) {
  upsweep::detail::host_sort_layout<false, Key, Value> layout;
  while (!layout.plan(n, wanted)) wanted += wanted / 4 + 4096;
  return wanted;
}

}  // namespace upsweep::test
