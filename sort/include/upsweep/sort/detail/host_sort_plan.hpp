// Host-to-host sort, planning (host only, no CUDA calls): from digit counts of the keys' window
// bits, the buckets (key ranges sharing a prefix) and the groups of consecutive buckets that are
// sorted on the device one at a time. A bucket larger than a group may hold is refined by the next
// digit; one that is still too large with every window bit in its prefix holds equal keys only,
// which need no sort.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace upsweep::detail {

inline constexpr int host_sort_digit_bits = 8;
inline constexpr int host_sort_digits = 1 << host_sort_digit_bits;

// The window bits [low, high) a counting level reads, counted from the window's lowest bit; level 0
// is the top digit. high - low is host_sort_digit_bits, or less for the window's last digit.
struct count_level {
  int low = 0;
  int high = 0;
  int bits() const { return high - low; }
};

inline count_level level_digits(int window_bits, int level) {
  count_level digits;
  digits.high = window_bits - level * host_sort_digit_bits;
  digits.low = std::max(0, digits.high - host_sort_digit_bits);
  return digits;
}

// The keys whose window bits begin with `prefix` (its `prefix_bits` top bits).
struct prefix_bucket {
  std::uint64_t prefix = 0;
  int prefix_bits = 0;
  std::int64_t count = 0;
};

// The smallest window value of a bucket: its prefix followed by zeros.
inline std::uint64_t bucket_lower_bound(const prefix_bucket& bucket, int window_bits) {
  const int shift = window_bits - bucket.prefix_bits;
  return shift >= 64 ? 0 : bucket.prefix << shift;
}

// Consecutive buckets, sorted together: items [first, first + count) of the sorted output.
struct host_sort_group {
  std::int64_t first = 0;
  std::int64_t count = 0;
  std::uint64_t lower_bound = 0;  // window value of its first bucket
  bool needs_sort = true;         // false: one bucket of equal keys (or fewer than two items)
};

// The buckets of one level from its counts: counts[p * host_sort_digits + d] holds the keys under
// parent p whose digit is d. Buckets with no keys are left out.
inline std::vector<prefix_bucket> split_buckets(const std::vector<prefix_bucket>& parents, count_level digits,
                                                const std::vector<std::int64_t>& counts) {
  std::vector<prefix_bucket> children;
  for (std::size_t p = 0; p < parents.size(); ++p) {
    for (int d = 0; d < (1 << digits.bits()); ++d) {
      const std::int64_t count = counts[p * host_sort_digits + static_cast<std::size_t>(d)];
      if (count == 0) continue;
      children.push_back({(parents[p].prefix << digits.bits()) | static_cast<std::uint64_t>(d),
                          parents[p].prefix_bits + digits.bits(), count});
    }
  }
  return children;
}

// Replaces every bucket of `buckets` that is a parent (in order) by its children (in order).
inline std::vector<prefix_bucket> refine_buckets(const std::vector<prefix_bucket>& buckets,
                                                 const std::vector<prefix_bucket>& parents,
                                                 const std::vector<prefix_bucket>& children) {
  std::vector<prefix_bucket> refined;
  std::size_t next_child = 0;
  for (const prefix_bucket& bucket : buckets) {
    const bool is_parent = std::any_of(parents.begin(), parents.end(), [&](const prefix_bucket& p) {
      return p.prefix == bucket.prefix && p.prefix_bits == bucket.prefix_bits;
    });
    if (!is_parent) {
      refined.push_back(bucket);
      continue;
    }
    const int child_bits = children.empty() ? 0 : children[next_child].prefix_bits;
    while (next_child < children.size() &&
           (children[next_child].prefix >> (child_bits - bucket.prefix_bits)) == bucket.prefix)
      refined.push_back(children[next_child++]);
  }
  return refined;
}

// The buckets to count again with the next digit: more keys than `capacity` and window bits left.
inline std::vector<prefix_bucket> oversized_buckets(const std::vector<prefix_bucket>& buckets, std::int64_t capacity,
                                                    int window_bits) {
  std::vector<prefix_bucket> oversized;
  for (const prefix_bucket& bucket : buckets)
    if (bucket.count > capacity && bucket.prefix_bits < window_bits) oversized.push_back(bucket);
  return oversized;
}

// Consecutive buckets, greedily, up to `capacity` items a group. A bucket above capacity becomes a
// group of its own: equal keys when its prefix is the whole window (then needs_sort is false).
inline std::vector<host_sort_group> cut_groups(const std::vector<prefix_bucket>& buckets, std::int64_t capacity,
                                               int window_bits) {
  std::vector<host_sort_group> groups;
  std::int64_t first = 0;
  for (const prefix_bucket& bucket : buckets) {
    const bool alone = bucket.count > capacity;
    if (groups.empty() || alone || groups.back().count + bucket.count > capacity ||
        !groups.back().needs_sort) {
      groups.push_back({first, 0, bucket_lower_bound(bucket, window_bits), true});
    }
    groups.back().count += bucket.count;
    if (alone && bucket.prefix_bits >= window_bits) groups.back().needs_sort = false;
    first += bucket.count;
  }
  for (host_sort_group& group : groups)
    if (group.count < 2) group.needs_sort = false;
  return groups;
}

}  // namespace upsweep::detail
