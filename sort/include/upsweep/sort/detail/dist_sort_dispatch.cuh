// Sort across ranks, one rank's part (host code): sort the slice, sample it, agree on splitters
// (on the device), agree on the send counts, exchange, merge the received runs, and optionally
// move to equal slices. The host waits once, for the send counts' all-gather: NCCL needs every
// size on the host before the exchange.
#pragma once

#include <upsweep/sort/detail/dist_merge_kernels.cuh>
#include <upsweep/sort/detail/dist_sort_kernels.cuh>
#include <upsweep/sort/detail/dist_sort_plan.hpp>
#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/dist_exchange.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace upsweep {

// Events the caller created, recorded on the stream as each phase ends (the benchmark's split).
struct dist_sort_phases {
  cudaEvent_t sorted = nullptr, planned = nullptr, exchanged = nullptr, merged = nullptr;
};

struct dist_sort_options {
  int begin_bit = 0;
  int end_bit = -1;        // -1: every bit of the key
  bool rebalance = false;  // end with equal slices (the first N mod P ranks one item more)
  const dist_sort_phases* phases = nullptr;
};

namespace detail {

template <bool Descending, class Key, class Value>
class dist_sort_run {
  static constexpr bool has_values = has_values_v<Value>;
  static constexpr std::size_t value_size = has_values ? sizeof(Value) : 0;

 public:
  struct arrays {
    const Key* keys_in;
    Key* keys_out;
    const Value* values_in;
    Value* values_out;
    std::int64_t num_items, capacity;
  };

  dist_sort_run(dist_exchange& exchange, const arrays& io, int begin_bit, int end_bit, bool rebalance,
                const dist_sort_phases* phases, cudaStream_t stream)
      : ex_(exchange), io_(io), begin_bit_(begin_bit), end_bit_(end_bit), rebalance_(rebalance), phases_(phases),
        stream_(stream),
        ranks_(exchange.size()), rank_(exchange.rank()), samples_(dist_samples_per_rank(exchange.size())) {}

  // The temporary storage, or (with d_temp == nullptr) only its size.
  cudaError_t carve(void* d_temp, std::size_t& temp_bytes) {
    std::size_t sort_bytes = 0;
    UPSWEEP_CUDA_RETURN(sort_local(nullptr, sort_bytes, io_.keys_out, io_.values_out));
    const bool alone = ranks_ == 1;
    const auto n = static_cast<std::size_t>(alone ? 0 : io_.num_items);
    const auto cap = static_cast<std::size_t>(alone ? 0 : io_.capacity);
    const auto p = static_cast<std::size_t>(alone ? 0 : ranks_);
    const auto block = static_cast<std::size_t>(samples_ + dist_header_words) * sizeof(std::uint64_t);
    const std::size_t merge_words = alone ? 0 : static_cast<std::size_t>(kway_temp_words<Key, Value>(io_.capacity));
    void* pieces[13] = {};
    const std::size_t sizes[13] = {sort_bytes, n * sizeof(Key), n * value_size, cap * sizeof(Key), cap * value_size,
                                   cap * sizeof(Key), cap * value_size, p ? block : 0, p * block,
                                   p ? (p - 1) * sizeof(dist_key) : 0, p ? (p + 1) * sizeof(long long) : 0,
                                   p * (p + 1) * sizeof(long long), merge_words * sizeof(long long)};
    UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp, temp_bytes, pieces, sizes));
    d_sort_temp_ = pieces[0];
    sort_bytes_ = sort_bytes;
    sorted_ = {static_cast<Key*>(pieces[1]), static_cast<Value*>(pieces[2])};
    recv_ = {static_cast<Key*>(pieces[3]), static_cast<Value*>(pieces[4])};
    alt_ = {static_cast<Key*>(pieces[5]), static_cast<Value*>(pieces[6])};
    d_block_ = static_cast<std::uint64_t*>(pieces[7]);
    d_blocks_ = static_cast<std::uint64_t*>(pieces[8]);
    d_splitters_ = static_cast<dist_key*>(pieces[9]);
    d_bounds_ = static_cast<long long*>(pieces[10]);
    d_all_bounds_ = static_cast<long long*>(pieces[11]);
    d_merge_words_ = static_cast<long long*>(pieces[12]);
    return cudaSuccess;
  }

  cudaError_t run(std::int64_t& num_out) {
    if (ranks_ == 1) {  // nothing to exchange: the slice sorted in place of the output
      if (io_.capacity < io_.num_items) return cudaErrorInvalidValue;
      num_out = io_.num_items;
      UPSWEEP_CUDA_RETURN(sort_local(d_sort_temp_, sort_bytes_, io_.keys_out, io_.values_out));
      for (auto phase : {&dist_sort_phases::sorted, &dist_sort_phases::planned, &dist_sort_phases::exchanged,
                         &dist_sort_phases::merged})
        UPSWEEP_CUDA_RETURN(mark(phase));
      return cudaSuccess;
    }
    UPSWEEP_CUDA_RETURN(sort_local(d_sort_temp_, sort_bytes_, sorted_.keys, sorted_.values));
    UPSWEEP_CUDA_RETURN(mark(&dist_sort_phases::sorted));
    UPSWEEP_CUDA_RETURN(agree_on_splitters());
    UPSWEEP_CUDA_RETURN(agree_on_sends());
    UPSWEEP_CUDA_RETURN(mark(&dist_sort_phases::planned));
    const dist_placement placement(sends_, ranks_);
    for (int q = 0; q < ranks_; ++q) {  // every rank decides alike, so none waits for a failed one
      const std::int64_t slice = placement.balanced_first(q + 1) - placement.balanced_first(q);
      if (placement.received(q) > capacities_[q] || (rebalance_ && slice > capacities_[q]))
        return cudaErrorInvalidValue;
    }
    UPSWEEP_CUDA_RETURN(exchange(placement));
    UPSWEEP_CUDA_RETURN(mark(&dist_sort_phases::exchanged));
    const buffers merged = rebalance_ ? buffers{} : buffers{io_.keys_out, io_.values_out};
    buffers at{};
    UPSWEEP_CUDA_RETURN(merge_received(placement, merged, at));
    if (rebalance_) {
      UPSWEEP_CUDA_RETURN(move_to_equal_slices(placement, at));
      num_out = placement.balanced_first(rank_ + 1) - placement.balanced_first(rank_);
    } else {
      num_out = placement.received(rank_);
    }
    return mark(&dist_sort_phases::merged);
  }

 private:
  struct buffers {
    Key* keys = nullptr;
    Value* values = nullptr;
  };

  cudaError_t mark(cudaEvent_t dist_sort_phases::*phase) const {
    return phases_ != nullptr && phases_->*phase != nullptr ? cudaEventRecord(phases_->*phase, stream_) : cudaSuccess;
  }

  cudaError_t sort_local(void* d_temp, std::size_t& bytes, Key* keys_out, Value* values_out) {
    using policy_t = radix_sort_policy_t<void, Key, Value>;
    return dispatch_radix_sort<policy_t, Descending>(d_temp, bytes, io_.keys_in, keys_out, io_.values_in, values_out,
                                                     io_.num_items, begin_bit_, end_bit_, stream_);
  }

  // Host copy of `count` words from the device; waits for the stream.
  template <class T>
  cudaError_t read_back(std::vector<T>& host, const T* d_from, std::size_t count) {
    host.resize(count);
    UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(host.data(), d_from, count * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    return cudaStreamSynchronize(stream_);
  }

  // Samples gathered from every rank, splitters chosen from them on the device: no host wait.
  cudaError_t agree_on_splitters() {
    const unsigned grid = static_cast<unsigned>((samples_ + 255) / 256);
    gather_samples_kernel<Descending><<<grid, 256, 0, stream_>>>(sorted_.keys, io_.num_items, samples_, begin_bit_,
                                                                 end_bit_, d_block_);
    UPSWEEP_CUDA_RETURN(cudaGetLastError());
    const std::size_t words = static_cast<std::size_t>(samples_ + dist_header_words);
    UPSWEEP_CUDA_RETURN(ex_.all_gather(d_block_, d_blocks_, words * sizeof(std::uint64_t), stream_));
    const long long all_samples = samples_ * ranks_;
    choose_splitters_kernel<<<static_cast<unsigned>((all_samples + 255) / 256), 256, 0, stream_>>>(
        d_blocks_, ranks_, samples_, d_splitters_);
    return cudaGetLastError();
  }

  // Every rank's send bounds and capacity, gathered and read back: the plan's one host wait.
  cudaError_t agree_on_sends() {
    find_send_bounds_kernel<Descending><<<(ranks_ + 128) / 128, 128, 0, stream_>>>(
        sorted_.keys, io_.num_items, io_.capacity, rank_, d_splitters_, ranks_, begin_bit_, end_bit_, d_bounds_);
    UPSWEEP_CUDA_RETURN(cudaGetLastError());
    const std::size_t words = static_cast<std::size_t>(ranks_) + 1;
    UPSWEEP_CUDA_RETURN(ex_.all_gather(d_bounds_, d_all_bounds_, words * sizeof(long long), stream_));
    std::vector<long long> blocks;
    UPSWEEP_CUDA_RETURN(read_back(blocks, d_all_bounds_, words * static_cast<std::size_t>(ranks_)));
    sends_.assign(static_cast<std::size_t>(ranks_) * ranks_, 0);
    capacities_.assign(static_cast<std::size_t>(ranks_), 0);
    for (std::size_t q = 0; q < static_cast<std::size_t>(ranks_); ++q) {
      const long long* bounds = blocks.data() + q * words;
      capacities_[q] = bounds[ranks_];
      for (std::size_t t = 0; t < static_cast<std::size_t>(ranks_); ++t) {
        sends_[q * ranks_ + t] = bounds[t] - (t == 0 ? 0 : bounds[t - 1]);
        if (sends_[q * ranks_ + t] < 0) return cudaErrorInvalidValue;  // ranks that disagree on the order
      }
    }
    return cudaSuccess;
  }

  // One all-to-all for the keys and one for the values: count(from, to) items rank `from` sends
  // to rank `to`, leaving in rank order from item `source_first` on, landing in rank order.
  template <class Count>
  cudaError_t all_to_all(const buffers& from, const buffers& to, std::int64_t source_first, Count count) {
    std::vector<std::int64_t> send_first(ranks_), recv_first(ranks_);
    std::int64_t sent = source_first, received = 0;
    for (int t = 0; t < ranks_; ++t) {
      send_first[t] = sent;
      sent += count(rank_, t);
      recv_first[t] = received;
      received += count(t, rank_);
    }
    UPSWEEP_CUDA_RETURN(all_to_all_items(from.keys, to.keys, sizeof(Key), send_first, recv_first, count));
    if constexpr (has_values)
      UPSWEEP_CUDA_RETURN(all_to_all_items(from.values, to.values, sizeof(Value), send_first, recv_first, count));
    return cudaSuccess;
  }
  template <class Count>
  cudaError_t all_to_all_items(const void* d_from, void* d_to, std::size_t item_bytes,
                               const std::vector<std::int64_t>& send_first, const std::vector<std::int64_t>& recv_first,
                               Count count) {
    std::vector<std::size_t> send_bytes(ranks_), send_offsets(ranks_), recv_bytes(ranks_), recv_offsets(ranks_);
    for (int t = 0; t < ranks_; ++t) {
      send_bytes[t] = static_cast<std::size_t>(count(rank_, t)) * item_bytes;
      send_offsets[t] = static_cast<std::size_t>(send_first[t]) * item_bytes;
      recv_bytes[t] = static_cast<std::size_t>(count(t, rank_)) * item_bytes;
      recv_offsets[t] = static_cast<std::size_t>(recv_first[t]) * item_bytes;
    }
    return ex_.all_to_all_v(d_from, send_bytes.data(), send_offsets.data(), d_to, recv_bytes.data(),
                            recv_offsets.data(), stream_);
  }

  cudaError_t exchange(const dist_placement& placement) {
    return all_to_all(sorted_, recv_, 0, [&](int from, int to) { return placement.sends(from, to); });
  }

  // The received runs, one per sending rank in rank order, merged kway_max_runs at a time (ties
  // to the lower rank) until one is left; the last level writes to `target` when given, else
  // `at` says where the result lies.
  cudaError_t merge_received(const dist_placement& placement, const buffers& target, buffers& at) {
    std::vector<long long> runs;
    for (int q = 0; q < ranks_; ++q)
      if (placement.sends(q, rank_) > 0) runs.push_back(placement.sends(q, rank_));
    buffers from = recv_;
    while (runs.size() > 1) {
      const bool last = runs.size() <= static_cast<std::size_t>(kway_max_runs);
      const buffers to = last && target.keys != nullptr ? target : (from.keys == recv_.keys ? alt_ : recv_);
      std::vector<long long> next;
      long long first = 0;
      for (std::size_t i = 0; i < runs.size(); i += kway_max_runs) {
        const int count = static_cast<int>(std::min<std::size_t>(kway_max_runs, runs.size() - i));
        long long items = 0;
        for (int j = 0; j < count; ++j) items += runs[i + j];
        if (count == 1) UPSWEEP_CUDA_RETURN(copy_items(from, to, first, items));
        else UPSWEEP_CUDA_RETURN(merge_group(from, to, first, &runs[i], count));
        next.push_back(items);
        first += items;
      }
      runs = next;
      from = to;
    }
    if (target.keys != nullptr && from.keys != target.keys && !runs.empty())
      UPSWEEP_CUDA_RETURN(copy_items(from, target, 0, runs[0]));
    at = target.keys != nullptr ? target : from;
    return cudaSuccess;
  }

  cudaError_t merge_group(const buffers& from, const buffers& to, std::int64_t first, const long long* counts,
                          int count) {
    return merge_runs<Descending>(from.keys + first, has_values ? from.values + first : nullptr, to.keys + first,
                                  has_values ? to.values + first : nullptr, counts, count, begin_bit_, end_bit_,
                                  d_merge_words_, stream_);
  }

  cudaError_t copy_items(const buffers& from, const buffers& to, std::int64_t first, std::int64_t count) {
    UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(to.keys + first, from.keys + first, static_cast<std::size_t>(count) * sizeof(Key),
                                        cudaMemcpyDeviceToDevice, stream_));
    if constexpr (has_values)
      UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(to.values + first, from.values + first,
                                          static_cast<std::size_t>(count) * sizeof(Value), cudaMemcpyDeviceToDevice,
                                          stream_));
    return cudaSuccess;
  }

  // From the sorted shares to equal slices: each rank sends the parts of its share that belong to
  // other slices, in order (mostly to its neighbours).
  cudaError_t move_to_equal_slices(const dist_placement& placement, const buffers& merged) {
    return all_to_all(merged, buffers{io_.keys_out, io_.values_out}, 0,
                      [&](int from, int to) { return placement.rebalance_sends(from, to); });
  }

  std::vector<std::int64_t> capacities_, sends_;
  dist_exchange& ex_;
  arrays io_;
  int begin_bit_, end_bit_;
  bool rebalance_;
  const dist_sort_phases* phases_;
  cudaStream_t stream_;
  int ranks_, rank_;
  std::int64_t samples_;
  void* d_sort_temp_ = nullptr;
  std::size_t sort_bytes_ = 0;
  buffers sorted_, recv_, alt_;
  std::uint64_t *d_block_ = nullptr, *d_blocks_ = nullptr;
  dist_key* d_splitters_ = nullptr;
  long long *d_bounds_ = nullptr, *d_all_bounds_ = nullptr, *d_merge_words_ = nullptr;
};

}  // namespace detail
}  // namespace upsweep
