// Sort across ranks, one rank's part (host code): sort the slice, sample it, agree on splitters
// (on the device), agree on the send counts, exchange, merge the received runs, and optionally
// move to equal slices. The host waits once, for the send counts' all-gather: NCCL needs every
// size on the host before the exchange.
#pragma once

#include <upsweep/sort/detail/dist_exchange_layout.hpp>
#include <upsweep/sort/detail/dist_merge_kernels.cuh>
#include <upsweep/sort/detail/dist_read_back.cuh>
#include <upsweep/sort/detail/dist_sort_kernels.cuh>
#include <upsweep/sort/detail/dist_sort_plan.hpp>
#include <upsweep/sort/detail/side_stream.hpp>
#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/dist_exchange.hpp>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace upsweep {

// Events the caller created, recorded on the stream as each phase ends (the benchmark's split).
// counted: every rank's send counts are on this rank's device, before the host reads them back;
// planned follows that read, so planned - counted is the host's wait and its planning.
struct dist_sort_phases {
  cudaEvent_t sorted = nullptr, planned = nullptr, exchanged = nullptr, merged = nullptr;
  cudaEvent_t counted = nullptr;
};

struct dist_sort_options {
  int begin_bit = 0;
  int end_bit = -1;        // -1: every bit of the key
  bool rebalance = false;  // end with equal slices (the first N mod P ranks one item more)
  const dist_sort_phases* phases = nullptr;
  // The exchange in 1, 2 or 4 rounds, each round's merge overlapping the next round's transfer
  // (up to 8 ranks; more take one round); 0: 4 from 2^24 items a rank on average where the
  // exchange's transfers overlap kernels, else 1. The same on every rank.
  int rounds = 0;
};

namespace detail {

template <bool Descending, class Key, class Value>
class dist_sort_run {
  static constexpr bool has_values = has_values_v<Value>;
  static constexpr std::size_t value_size = has_values ? sizeof(Value) : 0;
  // Every piece of the exchange starts on an item whose key and value lie on 128-byte boundaries
  // (dist_exchange_layout.hpp says why).
  static constexpr std::int64_t items_aligned(std::size_t bytes) {
    return static_cast<std::int64_t>(128 / std::gcd(std::size_t{128}, bytes));
  }
  static constexpr std::int64_t align_items = std::max(items_aligned(sizeof(Key)), items_aligned(has_values ? sizeof(Value) : 1));

 public:
  struct arrays {
    const Key* keys_in;
    Key* keys_out;
    const Value* values_in;
    Value* values_out;
    std::int64_t num_items, capacity;
  };

  dist_sort_run(dist_exchange& exchange, const arrays& io, int begin_bit, int end_bit, bool rebalance, int rounds,
                const dist_sort_phases* phases, cudaStream_t stream)
      : ex_(exchange), io_(io), begin_bit_(begin_bit), end_bit_(end_bit), rebalance_(rebalance), rounds_(rounds),
        phases_(phases), stream_(stream),
        ranks_(exchange.size()), rank_(exchange.rank()), samples_(dist_samples_per_rank(exchange.size())) {}

  // The temporary storage, or (with d_temp == nullptr) only its size.
  cudaError_t carve(void* d_temp, std::size_t& temp_bytes) {
    std::size_t sort_bytes = 0;
    UPSWEEP_CUDA_RETURN(sort_local(nullptr, sort_bytes, io_.keys_out, io_.values_out));
    const bool alone = ranks_ == 1;
    const auto n = static_cast<std::size_t>(alone ? 0 : io_.num_items);
    const auto cap = static_cast<std::size_t>(alone ? 0 : io_.capacity);
    const auto p = static_cast<std::size_t>(alone ? 0 : ranks_);
    const std::size_t buckets = p * dist_round_splits;
    const auto block = static_cast<std::size_t>(samples_ + dist_header_words) * sizeof(std::uint64_t);
    const std::size_t merge_words = alone ? 0 : static_cast<std::size_t>(kway_temp_words<Key, Value>(io_.capacity));
    void* pieces[13] = {};
    const auto slots = static_cast<std::size_t>(alone ? 0 : dist_receive_slots(io_.capacity, static_cast<std::int64_t>(buckets), align_items));
    const std::size_t sorted = alone ? 0 : n + static_cast<std::size_t>(align_items);  // + what a padded piece may read
    const std::size_t sizes[13] = {sort_bytes, sorted * sizeof(Key), sorted * value_size, slots * sizeof(Key), slots * value_size,
                                   cap * sizeof(Key), cap * value_size, p ? block : 0, p * block,
                                   p ? (buckets - 1) * sizeof(dist_key) : 0, p ? (buckets + 1) * sizeof(long long) : 0,
                                   p * (buckets + 1) * sizeof(long long), merge_words * sizeof(long long)};
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
    if (d_temp != nullptr && !alone) find_own_run_shift();
    return cudaSuccess;
  }

  cudaError_t run(std::int64_t& num_out) {
    if (ranks_ == 1) {  // nothing to exchange: the slice sorted in place of the output
      if (io_.capacity < io_.num_items) return cudaErrorInvalidValue;
      num_out = io_.num_items;
      UPSWEEP_CUDA_RETURN(sort_local(d_sort_temp_, sort_bytes_, io_.keys_out, io_.values_out));
      for (auto phase : {&dist_sort_phases::sorted, &dist_sort_phases::counted, &dist_sort_phases::planned,
                         &dist_sort_phases::exchanged, &dist_sort_phases::merged})
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
    const buffers merged = rebalance_ ? buffers{} : buffers{io_.keys_out, io_.values_out};
    buffers at{};
    UPSWEEP_CUDA_RETURN(exchange_and_merge(merged, at));
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

  cudaError_t mark(cudaEvent_t dist_sort_phases::*phase) const { return mark(phase, stream_); }
  cudaError_t mark(cudaEvent_t dist_sort_phases::*phase, cudaStream_t stream) const {
    return phases_ != nullptr && phases_->*phase != nullptr ? cudaEventRecord(phases_->*phase, stream) : cudaSuccess;
  }

  cudaError_t sort_local(void* d_temp, std::size_t& bytes, Key* keys_out, Value* values_out) {
    using policy_t = radix_sort_policy_t<void, Key, Value>;
    return dispatch_radix_sort<policy_t, Descending>(d_temp, bytes, io_.keys_in, keys_out, io_.values_in, values_out,
                                                     io_.num_items, begin_bit_, end_bit_, stream_);
  }

  // A rank's run to itself is merged from where its sort left it, not copied through the
  // exchange, when the sorted slice lies a whole number of keys (and values) from the receive
  // buffer (both are carved from the caller's storage): the offsets from the receive buffers.
  void find_own_run_shift() {
    const auto gap = [](const void* to, const void* from) {
      return reinterpret_cast<std::intptr_t>(to) - reinterpret_cast<std::intptr_t>(from);
    };
    const std::intptr_t keys = gap(sorted_.keys, recv_.keys);
    own_run_in_place_ = ranks_ <= kway_max_runs && keys % static_cast<std::intptr_t>(sizeof(Key)) == 0;
    own_key_shift_ = keys / static_cast<std::intptr_t>(sizeof(Key));
    if constexpr (has_values) {
      const std::intptr_t values = gap(sorted_.values, recv_.values);
      own_run_in_place_ = own_run_in_place_ && values % static_cast<std::intptr_t>(sizeof(Value)) == 0;
      own_value_shift_ = values / static_cast<std::intptr_t>(sizeof(Value));
    }
  }

  // Samples gathered from every rank, splitters chosen from them on the device: no host wait.
  cudaError_t agree_on_splitters() {
    const unsigned grid = static_cast<unsigned>((samples_ + 255) / 256);
    const auto tail_keys = static_cast<int>(align_items * sizeof(Key));
    const auto tail_values = static_cast<int>(align_items * value_size);
    auto* values_tail = has_values ? reinterpret_cast<unsigned char*>(sorted_.values + io_.num_items) : nullptr;
    UPSWEEP_CUDA_RETURN(launch_chained(gather_samples_kernel<Descending, Key>, dim3(grid), dim3(256), stream_,
                                       static_cast<const Key*>(sorted_.keys), static_cast<long long>(io_.num_items),
                                       static_cast<long long>(samples_), begin_bit_, end_bit_, d_block_,
                                       reinterpret_cast<unsigned char*>(sorted_.keys + io_.num_items), values_tail,
                                       tail_keys, tail_values));
    const std::size_t words = static_cast<std::size_t>(samples_ + dist_header_words);
    UPSWEEP_CUDA_RETURN(ex_.all_gather(d_block_, d_blocks_, words * sizeof(std::uint64_t), stream_));
    const long long all_samples = samples_ * ranks_;
    choose_splitters_kernel<<<static_cast<unsigned>((all_samples + 255) / 256), 256, 0, stream_>>>(
        d_blocks_, ranks_, buckets(), samples_, d_splitters_);
    return cudaGetLastError();
  }

  int buckets() const { return ranks_ * dist_round_splits; }
  // Bucket b's first item in rank q's sorted slice (b = buckets(): its end).
  std::int64_t bucket_first(int q, int b) const {
    return b == 0 ? 0 : bounds_[static_cast<std::size_t>(q) * (buckets() + 1) + b - 1];
  }

  // Every rank's bucket bounds and capacity, gathered and read back: the plan's one host wait.
  cudaError_t agree_on_sends() {
    const unsigned warps = static_cast<unsigned>(std::max(1, buckets() - 1));  // one a splitter
    UPSWEEP_CUDA_RETURN(launch_chained(find_send_bounds_kernel<Descending, Key>, dim3((warps + 3) / 4), dim3(128),
                                       stream_, static_cast<const Key*>(sorted_.keys),
                                       static_cast<long long>(io_.num_items),
                                       static_cast<long long>(io_.capacity), rank_,
                                       static_cast<const dist_key*>(d_splitters_), buckets(), begin_bit_, end_bit_,
                                       d_bounds_));
    const std::size_t words = static_cast<std::size_t>(buckets()) + 1;
    UPSWEEP_CUDA_RETURN(ex_.all_gather(d_bounds_, d_all_bounds_, words * sizeof(long long), stream_));
    UPSWEEP_CUDA_RETURN(mark(&dist_sort_phases::counted));
    UPSWEEP_CUDA_RETURN(read_back(ex_, bounds_, d_all_bounds_, words * static_cast<std::size_t>(ranks_), stream_));
    sends_.assign(static_cast<std::size_t>(ranks_) * ranks_, 0);
    capacities_.assign(static_cast<std::size_t>(ranks_), 0);
    std::int64_t total = 0;
    for (int q = 0; q < ranks_; ++q) {
      capacities_[q] = bounds_[q * words + buckets()];
      for (int b = 0; b < buckets(); ++b)  // ranks that disagree on the order
        if (bucket_first(q, b + 1) < bucket_first(q, b)) return cudaErrorInvalidValue;
      for (int t = 0; t < ranks_; ++t)
        sends_[q * ranks_ + t] =
            bucket_first(q, (t + 1) * dist_round_splits) - bucket_first(q, t * dist_round_splits);
      total += bucket_first(q, buckets());
    }
    if (rounds_ == 0) rounds_ = ex_.transfers_overlap_kernels() && total / ranks_ >= (std::int64_t{1} << 24) ? 4 : 1;
    if (ranks_ > kway_max_runs) rounds_ = 1;  // the merge passes of more runs keep to one round
    std::vector<std::int64_t> slots(static_cast<std::size_t>(ranks_));
    for (int q = 0; q < ranks_; ++q) slots[q] = dist_receive_slots(capacities_[q], buckets(), align_items);
    layout_ = dist_exchange_layout(ranks_, dist_round_splits, rounds_, align_items,
                                   [this](int q, int b) { return bucket_first(q, b); }, slots);
    return cudaSuccess;
  }

  // Per rank: the first item and the count sent to it, and received from it.
  struct routes {
    std::vector<std::int64_t> send_first, send_count, recv_first, recv_count;
    explicit routes(int p) : send_first(p), send_count(p), recv_first(p), recv_count(p) {}
  };

  // One all-to-all for the keys and one for the values, in one group of the transport's.
  cudaError_t all_to_all(const buffers& from, const buffers& to, const routes& r, cudaStream_t stream) {
    if constexpr (!has_values) {
      return all_to_all_items(from.keys, to.keys, sizeof(Key), r, stream);
    } else {
      UPSWEEP_CUDA_RETURN(ex_.group_start());
      cudaError_t status = all_to_all_items(from.keys, to.keys, sizeof(Key), r, stream);
      if (status == cudaSuccess) status = all_to_all_items(from.values, to.values, sizeof(Value), r, stream);
      const cudaError_t ended = ex_.group_end();
      return status != cudaSuccess ? status : ended;
    }
  }
  cudaError_t all_to_all_items(const void* d_from, void* d_to, std::size_t item_bytes, const routes& r,
                               cudaStream_t stream) {
    std::vector<std::size_t> send_bytes(ranks_), send_offsets(ranks_), recv_bytes(ranks_), recv_offsets(ranks_);
    for (int t = 0; t < ranks_; ++t) {
      send_bytes[t] = static_cast<std::size_t>(r.send_count[t]) * item_bytes;
      send_offsets[t] = static_cast<std::size_t>(r.send_first[t]) * item_bytes;
      recv_bytes[t] = static_cast<std::size_t>(r.recv_count[t]) * item_bytes;
      recv_offsets[t] = static_cast<std::size_t>(r.recv_first[t]) * item_bytes;
    }
    return ex_.all_to_all_v(d_from, send_bytes.data(), send_offsets.data(), d_to, recv_bytes.data(),
                            recv_offsets.data(), stream);
  }

  // Where the received runs lie, from the receive buffers (the own run may lie in the sorted
  // slice): items, and the offsets of their keys and of their values.
  struct run_list {
    std::vector<long long> counts, firsts, value_firsts;
    void add(long long items, long long first, long long value_first) {
      counts.push_back(items);
      firsts.push_back(first);
      value_firsts.push_back(value_first);
    }
  };

  // Round c's pieces to their ranks, as the layout places them (the own piece stays where it is
  // when own_run_in_place_); `runs` gains the round's runs.
  cudaError_t exchange_round(int c, cudaStream_t stream, run_list& runs) {
    routes r(ranks_);
    for (int t = 0; t < ranks_; ++t) {
      const bool stays = t == rank_ && own_run_in_place_;
      const dist_exchange_layout::piece& out = layout_.of(rank_, t, c);
      r.send_first[t] = out.sent_first;
      r.send_count[t] = stays ? 0 : out.sent;
      const dist_exchange_layout::piece& in = layout_.of(t, rank_, c);
      r.recv_first[t] = in.slot;
      r.recv_count[t] = stays ? 0 : in.sent;
      if (in.items == 0) continue;
      const long long at = in.slot + in.first - in.sent_first;
      if (stays) runs.add(in.items, own_key_shift_ + in.first, own_value_shift_ + in.first);
      else runs.add(in.items, at, at);
    }
    return all_to_all(sorted_, recv_, r, stream);
  }

  // The exchange and the merge. Up to kway_max_runs ranks, in rounds_ rounds: the transfers on a
  // side stream, one after another, while each round's runs merge on the caller's stream into the
  // result (`target`, else alt_) behind the rounds before it. More ranks: one round, merged in
  // passes.
  cudaError_t exchange_and_merge(const buffers& target, buffers& at) {
    if (ranks_ > kway_max_runs) {  // every run in the receive buffers (not own_run_in_place_)
      run_list runs;
      UPSWEEP_CUDA_RETURN(exchange_round(0, stream_, runs));
      UPSWEEP_CUDA_RETURN(mark(&dist_sort_phases::exchanged));
      return merge_received(runs.counts, runs.firsts, target, at);
    }
    const buffers result = target.keys != nullptr ? target : alt_;
    side_stream side(stream_);
    if (rounds_ > 1) UPSWEEP_CUDA_RETURN(side.open(rounds_));
    const cudaStream_t transfer = rounds_ > 1 ? side.stream() : stream_;
    std::vector<run_list> runs(static_cast<std::size_t>(rounds_));
    for (int c = 0; c < rounds_; ++c) {
      UPSWEEP_CUDA_RETURN(exchange_round(c, transfer, runs[c]));
      if (rounds_ > 1) UPSWEEP_CUDA_RETURN(side.done(c));
    }
    UPSWEEP_CUDA_RETURN(mark(&dist_sort_phases::exchanged, transfer));
    std::int64_t out = 0;
    for (int c = 0; c < rounds_; ++c) {
      if (rounds_ > 1) UPSWEEP_CUDA_RETURN(side.wait_for(c));
      UPSWEEP_CUDA_RETURN(merge_round(runs[c], result, out));
    }
    at = result;
    return side.close();
  }

  // One round's runs (at most kway_max_runs) merged into `to` from item `out` on, which moves past them.
  cudaError_t merge_round(const run_list& runs, const buffers& to, std::int64_t& out) {
    const long long items = std::accumulate(runs.counts.begin(), runs.counts.end(), 0ll);
    if (runs.counts.size() == 1)
      UPSWEEP_CUDA_RETURN(copy_items(recv_, runs.firsts[0], runs.value_firsts[0], to, out, items));
    else if (runs.counts.size() > 1)
      UPSWEEP_CUDA_RETURN(merge_group(recv_, runs.firsts.data(), runs.value_firsts.data(), runs.counts.data(),
                                      static_cast<int>(runs.counts.size()), to, out));
    out += items;
    return cudaSuccess;
  }

  // The received runs, in sending rank order, merged kway_max_runs at a time (ties to the lower
  // rank) until one is left; the last level writes to `target` when given, else `at` says where
  // the result lies.
  cudaError_t merge_received(std::vector<long long> runs, std::vector<long long> firsts, const buffers& target,
                             buffers& at) {
    buffers from = recv_;
    while (runs.size() > 1) {
      const bool last = runs.size() <= static_cast<std::size_t>(kway_max_runs);
      const buffers to = last && target.keys != nullptr ? target : (from.keys == alt_.keys ? recv_ : alt_);
      std::vector<long long> next, next_firsts;
      long long out = 0;
      for (std::size_t i = 0; i < runs.size(); i += kway_max_runs) {
        const int count = static_cast<int>(std::min<std::size_t>(kway_max_runs, runs.size() - i));
        long long items = 0;
        for (int j = 0; j < count; ++j) items += runs[i + j];
        if (count == 1) UPSWEEP_CUDA_RETURN(copy_items(from, firsts[i], firsts[i], to, out, items));
        else UPSWEEP_CUDA_RETURN(merge_group(from, &firsts[i], nullptr, &runs[i], count, to, out));
        next.push_back(items);
        next_firsts.push_back(out);
        out += items;
      }
      runs = next;
      firsts = next_firsts;
      from = to;
    }
    const long long first = runs.empty() ? 0 : firsts[0];
    if (target.keys != nullptr && from.keys != target.keys && !runs.empty())
      UPSWEEP_CUDA_RETURN(copy_items(from, first, first, target, 0, runs[0]));
    at = target.keys != nullptr ? target : buffers{from.keys + first, has_values ? from.values + first : nullptr};
    return cudaSuccess;
  }

  // value_firsts: nullptr where the values lie at the keys' offsets.
  cudaError_t merge_group(const buffers& from, const long long* firsts, const long long* value_firsts,
                          const long long* counts, int count, const buffers& to, std::int64_t out) {
    return merge_runs<Descending>(from.keys, from.values, to.keys + out, has_values ? to.values + out : nullptr, counts,
                                  firsts, value_firsts, count, begin_bit_, end_bit_, d_merge_words_, stream_);
  }

  cudaError_t copy_items(const buffers& from, std::int64_t from_first, std::int64_t from_value_first, const buffers& to,
                         std::int64_t to_first, std::int64_t count) {
    UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(to.keys + to_first, from.keys + from_first,
                                        static_cast<std::size_t>(count) * sizeof(Key), cudaMemcpyDeviceToDevice,
                                        stream_));
    if constexpr (has_values)
      UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(to.values + to_first, from.values + from_value_first,
                                          static_cast<std::size_t>(count) * sizeof(Value), cudaMemcpyDeviceToDevice,
                                          stream_));
    return cudaSuccess;
  }

  // From the sorted shares to equal slices: each rank sends the parts of its share that belong to
  // other slices, in order (mostly to its neighbours).
  cudaError_t move_to_equal_slices(const dist_placement& placement, const buffers& merged) {
    routes r(ranks_);
    std::int64_t sent = 0, received = 0;
    for (int t = 0; t < ranks_; ++t) {
      r.send_first[t] = sent;
      r.send_count[t] = placement.rebalance_sends(rank_, t);
      sent += r.send_count[t];
      r.recv_first[t] = received;
      r.recv_count[t] = placement.rebalance_sends(t, rank_);
      received += r.recv_count[t];
    }
    return all_to_all(merged, buffers{io_.keys_out, io_.values_out}, r, stream_);
  }

  std::vector<std::int64_t> capacities_, sends_;
  std::vector<long long> bounds_;  // every rank's bucket bounds and capacity (agree_on_sends)
  dist_exchange_layout layout_;
  dist_exchange& ex_;
  arrays io_;
  int begin_bit_, end_bit_;
  bool rebalance_;
  int rounds_;
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
  bool own_run_in_place_ = false;  // find_own_run_shift
  long long own_key_shift_ = 0, own_value_shift_ = 0;
};

}  // namespace detail
}  // namespace upsweep
