// Block layer of the histogram: where one count goes (a warp's private copy of the block's
// shared-memory histogram, or the global counts), how repeated bins are merged before the atomic
// (per-thread runs, or warp peers found with __match_any_sync), and the merge of the private
// copies into the global counts. Privatisation with several copies per block follows
// Gomez-Luna et al., "An optimized approach to histogram computation on GPU" (2013).
#pragma once

#include <upsweep/util/arch.cuh>

#include <cstdint>

namespace upsweep {

// How a thread's increments are merged before they reach an atomic.
//  - none: one atomic per sample.
//  - thread_runs: a thread adds a run of equal bins (per channel) with one atomic, so that
//    all-in-one-bin input costs one atomic per thread and flush rather than 32 on one word. In
//    shared memory the run is closed without a branch: every sample issues one atomic, the
//    closed run's count to its bin, or, while the run goes on, to the lane's trash word.
//  - warp_match: lanes with equal bins find each other (__match_any_sync) and the lowest adds
//    their count; used on full tiles, where the whole warp is converged.
enum class histogram_aggregation { none, thread_runs, warp_match };

namespace detail {

template <class Counter>
__device__ __forceinline__ void atomic_add_counter(Counter* address, std::uint32_t value) {
  static_assert(sizeof(Counter) == 4 || sizeof(Counter) == 8, "32- or 64-bit counters");
  if constexpr (sizeof(Counter) == 4) {
    atomicAdd(reinterpret_cast<unsigned int*>(address), static_cast<unsigned int>(value));
  } else {
    atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value));
  }
}

// Adds `count` to the shared word at `address`, a shared-window address.
__device__ __forceinline__ void shared_add(unsigned address, std::uint32_t count) {
  asm volatile("red.shared.add.u32 [%0], %1;" : : "r"(address), "r"(count) : "memory");
}

// Shared words past the copies where dropped samples go, one per lane: the mapper hands a
// dropped sample this bin instead of -1, so counting is a select and an atomic rather than a
// branch around it (ptxas turns even a predicated atomic into a branch with a convergence
// barrier, which on 8-bit samples cost about as much as the rest of a sample's work).
inline constexpr int trash_words = warp_threads;

// Counts into one private copy of the block histogram in shared memory; channel c's bins start
// at offsets[c] (channel 0's at 0). 32-bit shared counters: the dispatch keeps every block below
// 2^32 samples. The copy is a 32-bit shared-window address, computed once.
template <int Active>
struct shared_sink {
  static constexpr bool has_trash = true;
  unsigned copy_address;
  int trash_bin;  // this lane's trash word, as a bin of the copy; never read
  int offsets[Active];
  __device__ __forceinline__ int first_bin(int channel) const { return channel == 0 ? 0 : offsets[channel]; }
  __device__ __forceinline__ void add(int channel, int bin, std::uint32_t count) const {
    shared_add(copy_address + static_cast<unsigned>(first_bin(channel) + bin) * 4u, count);
  }
  __device__ __forceinline__ int dropped_bin(int channel) const { return trash_bin - first_bin(channel); }
  // `bin` may be dropped_bin(channel).
  __device__ __forceinline__ void add_one(int channel, int bin) const { add(channel, bin, 1); }
};

// Counts straight into the global counts (too many bins for shared memory).
template <class Counter, int Active>
struct global_sink {
  static constexpr bool has_trash = false;
  Counter* counts[Active];
  __device__ __forceinline__ void add(int channel, int bin, std::uint32_t count) const {
    atomic_add_counter(counts[channel] + bin, count);
  }
  __device__ __forceinline__ int dropped_bin(int) const { return -1; }
  __device__ __forceinline__ void add_one(int channel, int bin) const {
    if (bin >= 0) add(channel, bin, 1);
  }
};

// One thread's view of counting: add(channel, bin), where a dropped sample's bin is
// dropped_bin(channel) (the mapper returns it in place of a bin).
template <histogram_aggregation Aggregation, class Sink, int Active>
class bin_counter {
  // Runs closed by selecting the atomic's address instead of branching (shared sinks only).
  static constexpr bool selected_runs = Aggregation == histogram_aggregation::thread_runs && Sink::has_trash;

 public:
  __device__ explicit bin_counter(const Sink& sink) : sink_(sink) {
#pragma unroll
    for (int c = 0; c < Active; ++c) {
      run_bin_[c] = selected_runs ? sink_.dropped_bin(c) : -1;
      run_length_[c] = 0;
    }
  }

  // The bin to give a dropped sample: the sink's trash when no branch skips it, else -1.
  __device__ __forceinline__ int dropped_bin(int channel) const {
    if constexpr (Aggregation == histogram_aggregation::none || selected_runs) {
      return sink_.dropped_bin(channel);
    } else {
      return -1;
    }
  }

  // bin is a bin of `channel` or dropped_bin(channel). Any lane, any convergence. Channels must be
  // compile-time constants after unrolling, so that the run state stays in registers.
  __device__ __forceinline__ void add(int channel, int bin) {
    if constexpr (Aggregation == histogram_aggregation::none) {
      sink_.add_one(channel, bin);
    } else if constexpr (selected_runs) {
      // Dropped samples run in the trash bin like any other; trash words are never read.
      const bool same = bin == run_bin_[channel];
      sink_.add(channel, same ? sink_.dropped_bin(channel) : run_bin_[channel], run_length_[channel]);
      run_length_[channel] = same ? run_length_[channel] + 1 : 1;
      run_bin_[channel] = bin;
    } else if constexpr (Aggregation == histogram_aggregation::thread_runs) {
      if (bin < 0) return;
      if (bin == run_bin_[channel]) {
        ++run_length_[channel];
        return;
      }
      flush(channel);
      run_bin_[channel] = bin;
      run_length_[channel] = 1;
    } else if (bin >= 0) {
      sink_.add(channel, bin, 1);  // warp_match outside full tiles
    }
  }

  // Called by all 32 lanes of a warp together, with the same channel.
  __device__ __forceinline__ void add_warp(int channel, int bin) {
    if constexpr (Aggregation == histogram_aggregation::warp_match) {
      const unsigned peers = __match_any_sync(full_warp_mask, bin);  // dropped lanes pair up on -1
      const bool leader = static_cast<int>(lane_id()) == __ffs(peers) - 1;
      if (bin >= 0 && leader) sink_.add(channel, bin, static_cast<std::uint32_t>(__popc(peers)));
    } else {
      add(channel, bin);
    }
  }

  // Adds the open runs; call once at the end.
  __device__ __forceinline__ void flush() {
#pragma unroll
    for (int c = 0; c < Active; ++c) {
      flush(c);
      run_length_[c] = 0;
    }
  }

 private:
  __device__ __forceinline__ void flush(int channel) {
    if (run_length_[channel] > 0) sink_.add(channel, run_bin_[channel], run_length_[channel]);
  }

  Sink sink_;
  int run_bin_[Active];
  std::uint32_t run_length_[Active];
};

template <int BlockThreads>
__device__ __forceinline__ void zero_shared_counts(unsigned* counts, int num_counts) {
  for (int i = static_cast<int>(threadIdx.x); i < num_counts; i += BlockThreads) counts[i] = 0;
}

// Sums the `copies` private copies bin by bin and adds each non-zero total to the global count
// of its channel. Call after a barrier that follows the last shared increment.
template <int BlockThreads, class Counter, int Active>
__device__ __forceinline__ void merge_shared_counts(const unsigned* counts, int total_bins, int copies,
                                                    Counter* const (&d_counts)[Active],
                                                    const int (&offsets)[Active + 1]) {
  for (int i = static_cast<int>(threadIdx.x); i < total_bins; i += BlockThreads) {
    std::uint32_t sum = 0;
    for (int k = 0; k < copies; ++k) sum += counts[k * total_bins + i];
    if (sum == 0) continue;  // skewed input leaves most bins empty: no atomic for them
    int channel = 0;
    while (channel + 1 < Active && i >= offsets[channel + 1]) ++channel;
    atomic_add_counter(d_counts[channel] + (i - offsets[channel]), sum);
  }
}

}  // namespace detail
}  // namespace upsweep
