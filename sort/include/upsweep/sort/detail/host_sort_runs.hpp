// Host-to-host sort out of core with a host scratch, planning (host only, no CUDA calls). The
// first pass leaves sorted runs of `run_items` keys in the scratch; this cuts the key range into
// groups of at most `capacity` items, each gathered from a segment of every run (runs are sorted,
// so a group's part of a run is one segment, found by binary search). Items whose window value
// alone exceeds a slot form a group of equal keys, copied without a sort.
#pragma once

#include <upsweep/sort/radix_traits.cuh>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace upsweep::detail {

struct run_group {
  std::int64_t first = 0;           // its items are [first, first + count) of the sorted output
  std::int64_t count = 0;
  bool equal_keys = false;          // one window value: run order is sorted order
  std::vector<std::int64_t> begin;  // per run, its segment [begin[r], end[r]) of run r
  std::vector<std::int64_t> end;
};

template <bool Descending, class Key>
class run_planner {
 public:
  run_planner(const Key* runs, std::int64_t num_items, std::int64_t run_items, int begin_bit, int end_bit)
      : runs_(runs), num_items_(num_items), run_items_(run_items), begin_bit_(begin_bit), end_bit_(end_bit) {
    const int width = end_bit - begin_bit;
    max_value_ = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    num_runs_ = run_items > 0 ? (num_items + run_items - 1) / run_items : 0;
    at_.assign(static_cast<std::size_t>(num_runs_), 0);
  }

  // The next group, greedily the most window values whose items fit `capacity`; false once every
  // item is in a group. One at a time, so the sort plans a group while the last one is in flight.
  bool next(std::int64_t capacity, run_group& group) {
    while (done_ < num_items_) {
      group = run_group{};
      group.first = done_;
      group.begin = std::vector<std::int64_t>(at_);  // built, not assigned into: GCC 12 warns on the latter
      if (num_items_ - done_ <= capacity) {
        group.end = run_ends();
      } else if (low_ == max_value_ || below(low_ + 1) - done_ > capacity) {
        group.end = low_ == max_value_ ? run_ends() : positions(low_ + 1);
        group.equal_keys = true;
        low_ = low_ == max_value_ ? low_ : low_ + 1;
      } else {
        const std::uint64_t high = largest_fitting(low_ + 1, done_ + capacity);
        group.end = positions(high);
        low_ = high;
      }
      for (std::size_t r = 0; r < at_.size(); ++r) group.count += group.end[r] - group.begin[r];
      at_ = std::vector<std::int64_t>(group.end);
      done_ += group.count;
      if (group.count > 0) return true;
    }
    return false;
  }

  // Every group at once.
  std::vector<run_group> cut(std::int64_t capacity) {
    std::vector<run_group> groups;
    for (run_group group; next(capacity, group);) groups.push_back(group);
    return groups;
  }

 private:
  std::int64_t run_size(std::int64_t r) const { return std::min(run_items_, num_items_ - r * run_items_); }
  std::uint64_t window(const Key& key) const { return radix_window<Descending>(key, begin_bit_, end_bit_); }

  // The first position of run r whose window value is not below `value`.
  std::int64_t position(std::int64_t r, std::uint64_t value) const {
    const Key* first = runs_ + r * run_items_;
    return std::partition_point(first, first + run_size(r), [&](const Key& k) { return window(k) < value; }) - first;
  }
  std::vector<std::int64_t> positions(std::uint64_t value) const {
    std::vector<std::int64_t> p(static_cast<std::size_t>(num_runs_));
    for (std::int64_t r = 0; r < num_runs_; ++r) p[static_cast<std::size_t>(r)] = position(r, value);
    return p;
  }
  std::vector<std::int64_t> run_ends() const {
    std::vector<std::int64_t> p(static_cast<std::size_t>(num_runs_));
    for (std::int64_t r = 0; r < num_runs_; ++r) p[static_cast<std::size_t>(r)] = run_size(r);
    return p;
  }
  // Items whose window value is below `value`, over all runs.
  std::int64_t below(std::uint64_t value) const {
    std::int64_t total = 0;
    for (std::int64_t r = 0; r < num_runs_; ++r) total += position(r, value);
    return total;
  }
  // The largest value in [lowest, max] with below(value) <= limit (below(lowest) <= limit holds).
  std::uint64_t largest_fitting(std::uint64_t lowest, std::int64_t limit) const {
    std::uint64_t good = lowest, bad_or_max = max_value_;
    if (below(max_value_) <= limit) return max_value_;
    while (bad_or_max - good > 1) {  // below(good) <= limit < below(bad_or_max)
      const std::uint64_t mid = good + (bad_or_max - good) / 2;
      if (below(mid) <= limit) good = mid;
      else bad_or_max = mid;
    }
    return good;
  }

  const Key* runs_;
  std::int64_t num_items_, run_items_;
  int begin_bit_, end_bit_;
  std::uint64_t max_value_ = 0;
  std::int64_t num_runs_ = 0;
  std::vector<std::int64_t> at_;  // per run, where the next group starts
  std::int64_t done_ = 0;         // items in groups so far
  std::uint64_t low_ = 0;         // every item not yet in a group has a window value >= low_
};

}  // namespace upsweep::detail
