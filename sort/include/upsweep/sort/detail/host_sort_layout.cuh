// Host-to-host sort, storage: how the caller's device budget is carved (one pair of n-item buffers
// when everything fits, else two slots of `capacity` items that take turns) and how much pinned
// staging a call wants. Sizes only; the sort itself is host_sort_dispatch.cuh.
#pragma once

#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/detail/host_sort_plan.hpp>
#include <upsweep/sort/host_sort_types.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

inline constexpr std::int64_t host_sort_min_capacity = std::int64_t{1} << 16;  // items a slot holds at least
inline constexpr std::int64_t host_sort_max_rounds = 4096;  // chunks (and groups) of n / capacity at most
inline constexpr std::size_t host_staging_slot_bytes = std::size_t{32} << 20;
inline constexpr int host_staging_slots = 8;  // half for uploads, half for downloads

template <class Value>
inline constexpr std::size_t value_bytes_v = has_values_v<Value> ? sizeof(Value) : 0;

// Device temporaries of one double-buffer sort of n items (the control block and look-back words).
template <bool Descending, class Key, class Value>
std::size_t device_sort_temp_bytes(std::int64_t num_items) {
  std::size_t bytes = 0;
  double_buffer<Key> keys;
  double_buffer<Value> values;
  static_cast<void>(sort_double_buffer<void, Descending, Key, Value>(nullptr, bytes, keys, has_values_v<Value> ? &values : nullptr,
                                                                    num_items, 0, radix_traits<Key>::key_bits, 0,
                                                                    radix_key_codec<Key>{}));
  return bytes;
}

// Enough for a sort of any count up to `capacity`: smaller inputs take smaller tiles (more
// look-back words an item), so the largest need is at the top of some policy's size range. The
// ranges end at powers of two (radix_sort_tuning.cuh).
template <bool Descending, class Key, class Value>
std::size_t device_sort_temp_bytes_up_to(std::int64_t capacity) {
  std::size_t most = device_sort_temp_bytes<Descending, Key, Value>(capacity);
  for (std::int64_t below = 1; below - 1 < capacity; below *= 2)
    most = std::max(most, device_sort_temp_bytes<Descending, Key, Value>(below - 1));
  return most;
}

// Where each piece of the device storage lies, for `capacity` items a slot.
template <class Key, class Value>
struct host_sort_slot {
  Key* keys[2] = {};
  Value* values[2] = {};
  void* d_temp = nullptr;
  std::size_t temp_bytes = 0;
  long long* d_starts = nullptr;  // group starts in its sorted chunk
};

template <bool Descending, class Key, class Value>
struct host_sort_layout {
  bool in_core = false;
  std::int64_t capacity = 0;   // items a slot holds (in core: all of them, one slot)
  std::int64_t max_groups = 0;
  std::int64_t max_parents = 0;
  std::size_t device_bytes = 0;
  std::size_t staging_small_bytes = 0;  // pinned: two slots' group starts

  // The bytes of each piece, in carving order: per slot (keys x2, values x2, temp, starts), then
  // the digit counts, the parents and the group bounds.
  std::size_t slot_bytes(std::int64_t items) const {
    const auto n = static_cast<std::size_t>(items);
    return 2 * round_up_bytes(n * sizeof(Key)) + 2 * round_up_bytes(n * value_bytes_v<Value>) +
           round_up_bytes(device_sort_temp_bytes_up_to<Descending, Key, Value>(items)) +
           round_up_bytes(static_cast<std::size_t>(max_groups + 1) * sizeof(long long));
  }
  std::size_t shared_bytes() const {
    return round_up_bytes(static_cast<std::size_t>(std::max<std::int64_t>(max_parents, 1)) * host_sort_digits *
                          sizeof(unsigned long long)) +
           round_up_bytes(static_cast<std::size_t>(std::max<std::int64_t>(max_parents, 1)) * sizeof(std::uint64_t)) +
           round_up_bytes(static_cast<std::size_t>(max_groups) * sizeof(std::uint64_t));
  }
  int slots() const { return in_core ? 1 : 2; }

  // In core when one slot of n items fits the budget (0: no limit); else the largest capacity of
  // two slots that fits. Returns false when the budget is below the smallest workable one.
  bool plan(std::int64_t num_items, std::size_t budget) {
    in_core = true;
    capacity = std::max<std::int64_t>(num_items, 1);
    max_groups = 64;  // in core: groups only pace the output copies
    max_parents = 1;
    device_bytes = slot_bytes(capacity) + shared_bytes();
    if (budget == 0 || device_bytes <= budget) return finish();
    in_core = false;
    // The largest capacity that fits, from the smallest that keeps the rounds under their limit.
    std::int64_t low = std::max(host_sort_min_capacity, (num_items + host_sort_max_rounds - 1) / host_sort_max_rounds);
    std::int64_t high = num_items;
    if (!fits(num_items, low, budget)) return false;
    while (low < high) {
      const std::int64_t mid = low + (high - low + 1) / 2;
      if (fits(num_items, mid, budget)) low = mid;
      else high = mid - 1;
    }
    fits(num_items, low, budget);
    capacity = low;
    device_bytes = budget;
    return finish();
  }

 private:
  bool fits(std::int64_t num_items, std::int64_t items, std::size_t budget) {
    const std::int64_t rounds = (num_items + items - 1) / items;
    if (rounds > host_sort_max_rounds) return false;
    max_groups = 2 * rounds + 2;  // greedy groups: any two neighbours hold more than a capacity
    max_parents = rounds;         // refined buckets each hold more than a capacity
    return 2 * slot_bytes(items) + shared_bytes() <= budget;
  }
  bool finish() {
    staging_small_bytes = round_up_bytes(2 * static_cast<std::size_t>(max_groups + 1) * sizeof(long long), 4096);
    return true;
  }
};

}  // namespace detail
}  // namespace upsweep
