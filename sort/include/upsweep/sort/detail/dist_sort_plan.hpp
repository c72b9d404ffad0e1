// Sort across ranks, planning (host only, no CUDA calls). Every rank sorts its slice, takes
// regular samples of it, and every rank picks the same splitters from all samples. Items compare
// by (window value, rank, position in the rank's sorted slice): all distinct, so equal keys split
// deterministically and the bound on a rank's share holds even when every key is equal. A stable
// local sort keeps equal keys in input order, so the sorted position orders them as the input does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
#define UPSWEEP_DIST_HOST_DEVICE __host__ __device__
#else
#define UPSWEEP_DIST_HOST_DEVICE
#endif

namespace upsweep::detail {

// An item's place in the global order.
struct dist_key {
  std::uint64_t value = 0;  // the radix window of the key (descending already inverted)
  std::int64_t rank = 0;
  std::int64_t position = 0;  // in the rank's sorted slice
};

UPSWEEP_DIST_HOST_DEVICE inline bool operator<(const dist_key& a, const dist_key& b) {
  if (a.value != b.value) return a.value < b.value;
  if (a.rank != b.rank) return a.rank < b.rank;
  return a.position < b.position;
}

// Samples a rank contributes. Below a splitter, rank q's true count is within half a sample's
// weight (n_q / 2s items) and one item of its sampled weight, and the sampled weight overshoots
// its target by less than one sample; so a rank receives at most N/P + 2N/s + 2P items, about
// (1 + 2P/s) of its fair share: 64P samples give 1 + 1/32 (capped for very many ranks).
inline std::int64_t dist_samples_per_rank(int num_ranks) {
  return std::min<std::int64_t>(std::int64_t{64} * num_ranks, std::int64_t{1} << 16);
}

// The exchange runs in up to this many rounds, so that a round's merge overlaps the next round's
// transfer: each rank's share is split by C - 1 more splitters (choose_splitters_kernel).
inline constexpr int dist_round_splits = 4;

// The largest number of items a rank may receive, for output buffers sized before the exchange:
// the fair share plus the sampling error above, rounded up.
inline std::int64_t dist_receive_bound(std::int64_t total_items, int num_ranks) {
  const std::int64_t s = dist_samples_per_rank(num_ranks);
  const std::int64_t bound =
      (total_items + num_ranks - 1) / num_ranks + 2 * ((total_items + s - 1) / s) + 2 * std::int64_t{num_ranks};
  return std::min(bound, total_items);
}

// Sample j of a slice of n sorted items sits in the middle of the j-th of s equal parts:
// floor((2j + 1) n / 2s), computed without overflow for n < 2^62 (n = a s + b).
UPSWEEP_DIST_HOST_DEVICE inline std::int64_t dist_sample_position(std::int64_t n, std::int64_t s, std::int64_t j) {
  const std::int64_t a = n / s, b = n % s;
  return j * a + (a * s + (2 * j + 1) * b) / (2 * s);
}

// Splitter t (t = 0..P-2) is the first item of rank t + 1's share. `values[q * s + j]` is rank
// q's sample j, `counts[q]` its slice size (a rank without items has no samples). Each sample
// weighs counts[q] / s items; splitter t is the first sample at which the weight before it
// reaches (t + 1) N / P. Every rank gets the same splitters from the same input. The sort picks
// them on the device (choose_splitters_kernel, dist_sort_kernels.cuh); this is its reference.
inline std::vector<dist_key> choose_splitters(const std::vector<std::uint64_t>& values,
                                              const std::vector<std::int64_t>& counts, std::int64_t s) {
  const int num_ranks = static_cast<int>(counts.size());
  struct sample {
    dist_key key;
    std::int64_t rank_items;  // its weight is rank_items / s
  };
  std::vector<sample> samples;
  std::int64_t total = 0;
  for (int q = 0; q < num_ranks; ++q) {
    total += counts[q];
    if (counts[q] == 0) continue;
    for (std::int64_t j = 0; j < s; ++j)
      samples.push_back({{values[static_cast<std::size_t>(q * s + j)], q, dist_sample_position(counts[q], s, j)}, counts[q]});
  }
  std::sort(samples.begin(), samples.end(), [](const sample& a, const sample& b) { return a.key < b.key; });
  std::vector<dist_key> splitters;
  // Weights in units of 1/s item, so the sums stay exact: weight_before * P >= (t + 1) N s.
  unsigned __int128 weight_before = 0;
  std::size_t next = 0;
  for (int t = 0; t + 1 < num_ranks; ++t) {
    const unsigned __int128 wanted = static_cast<unsigned __int128>(t + 1) * static_cast<unsigned __int128>(total) *
                                     static_cast<unsigned __int128>(s);
    while (next < samples.size() && weight_before * static_cast<unsigned>(num_ranks) < wanted)
      weight_before += static_cast<unsigned __int128>(samples[next++].rank_items);
    // Past the last sample: an empty share, above every item.
    splitters.push_back(next < samples.size() ? samples[next].key
                                              : dist_key{~std::uint64_t{0}, num_ranks, 0});
  }
  return splitters;
}

// Items of rank q's sorted slice below `splitter`, given the slice's lower and upper bound of the
// splitter's value: equal values go below when their rank is lower, up to the splitter's own
// position in its own rank.
UPSWEEP_DIST_HOST_DEVICE inline std::int64_t dist_items_below(const dist_key& splitter, std::int64_t rank,
                                                              std::int64_t lower_bound, std::int64_t upper_bound) {
  if (rank < splitter.rank) return upper_bound;
  if (rank > splitter.rank) return lower_bound;
  const std::int64_t position = splitter.position < lower_bound ? lower_bound : splitter.position;
  return position > upper_bound ? upper_bound : position;
}

// Where every item goes, from the matrix sends[q * P + t] (items rank q sends to rank t).
class dist_placement {
 public:
  dist_placement(std::vector<std::int64_t> sends, int num_ranks) : sends_(std::move(sends)), num_ranks_(num_ranks) {}
  int num_ranks() const { return num_ranks_; }
  std::int64_t sends(int from, int to) const { return sends_[static_cast<std::size_t>(from) * num_ranks_ + to]; }
  std::int64_t received(int rank) const {
    std::int64_t sum = 0;
    for (int q = 0; q < num_ranks_; ++q) sum += sends(q, rank);
    return sum;
  }
  std::int64_t total() const {
    std::int64_t sum = 0;
    for (std::int64_t c : sends_) sum += c;
    return sum;
  }
  // First global position of rank r's sorted share.
  std::int64_t global_first(int rank) const {
    std::int64_t sum = 0;
    for (int t = 0; t < rank; ++t) sum += received(t);
    return sum;
  }
  // Equal slices: rank r ends with items [balanced_first(r), balanced_first(r + 1)) of the order
  // (the first N mod P ranks one item more).
  std::int64_t balanced_first(int rank) const {
    const std::int64_t n = total(), p = num_ranks_;
    return rank * (n / p) + std::min<std::int64_t>(rank, n % p);
  }
  // Items rank `from` sends to rank `to` to move from the sorted shares to equal slices.
  std::int64_t rebalance_sends(int from, int to) const {
    const std::int64_t first = std::max(global_first(from), balanced_first(to));
    const std::int64_t last = std::min(global_first(from) + received(from), balanced_first(to + 1));
    return std::max<std::int64_t>(0, last - first);
  }

 private:
  std::vector<std::int64_t> sends_;
  int num_ranks_;
};

}  // namespace upsweep::detail
