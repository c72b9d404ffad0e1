// Host-to-host sort, the driver. Three streams: copies in, device work (the caller's stream),
// copies out; events order them. Two paths:
//  - in core: the input goes to the device in pieces, counted by its top digit as they land; one
//    pass partitions it by that digit, then groups of digits are sorted one after another while
//    earlier groups travel back: the output copy hides all but the first group's sort.
//  - out of core: (1) count the top digit chunk by chunk, refining buckets too large for a slot;
//    (2) sort each chunk and copy its part of every group to the group's place in the output;
//    (3) sort each group in place through the device. Link traffic: 3n in, 2n out. With a host
//    scratch instead: (1) each chunk sorted into the scratch as a run; (2) each group gathered from
//    the runs, sorted and copied to its place. Link traffic: 2n in, 2n out.
#pragma once

#include <upsweep/sort/detail/host_copy.hpp>
#include <upsweep/sort/detail/host_sort_kernels.cuh>
#include <upsweep/sort/detail/host_sort_layout.cuh>
#include <upsweep/sort/detail/host_sort_runs.hpp>
#include <upsweep/sort/detail/host_sort_streams.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace upsweep::detail {

template <bool Descending, class Key, class Value>
class host_sort_run {
 public:
  host_sort_run(const host_sort_layout<Descending, Key, Value>& layout, const host_sort_storage& storage,
                const host_arrays<Key, Value>& arrays, std::int64_t num_items, int begin_bit, int end_bit)
      : layout_(layout), arrays_(arrays), num_items_(num_items), begin_bit_(begin_bit), end_bit_(end_bit),
        window_bits_(end_bit - begin_bit),
        uploads_(static_cast<char*>(storage.h_staging) + layout.staging_small_bytes,
                 (storage.staging_bytes - layout.staging_small_bytes) / 2, host_staging_slots / 2),
        downloads_(static_cast<char*>(storage.h_staging) + layout.staging_small_bytes +
                       (storage.staging_bytes - layout.staging_small_bytes) / 2,
                   (storage.staging_bytes - layout.staging_small_bytes) / 2, host_staging_slots / 2),
        uploader_(uploads_), downloader_(downloads_) {
    h_starts_ = static_cast<long long*>(storage.h_staging);
    carve(storage.d_storage);
  }

  cudaError_t run(cudaStream_t stream) {
    UPSWEEP_CUDA_RETURN(streams_.create(stream));
    UPSWEEP_CUDA_RETURN(uploads_.create_events());
    UPSWEEP_CUDA_RETURN(downloads_.create_events());
    UPSWEEP_CUDA_RETURN(layout_.in_core ? sort_in_core() : sort_out_of_core());
    UPSWEEP_CUDA_RETURN(downloader_.finish());
    return streams_.finish();
  }

 private:
  using slot_t = host_sort_slot<Key, Value>;
  static constexpr bool has_values = has_values_v<Value>;

  void carve(void* d_storage) {
    char* next = static_cast<char*>(d_storage);
    auto take = [&](std::size_t bytes) {
      char* piece = next;
      next += round_up_bytes(bytes);
      return piece;
    };
    const auto cap = static_cast<std::size_t>(layout_.capacity);
    for (int s = 0; s < layout_.slots(); ++s) {
      slot_t& slot = slots_[s];
      for (Key*& keys : slot.keys) keys = reinterpret_cast<Key*>(take(cap * sizeof(Key)));
      for (Value*& values : slot.values) values = reinterpret_cast<Value*>(take(cap * value_bytes_v<Value>));
      slot.temp_bytes = device_sort_temp_bytes_up_to<Descending, Key, Value>(layout_.capacity);
      slot.d_temp = take(slot.temp_bytes);
      slot.d_starts = reinterpret_cast<long long*>(take(static_cast<std::size_t>(layout_.max_groups + 1) * sizeof(long long)));
    }
    const auto parents = static_cast<std::size_t>(std::max<std::int64_t>(layout_.max_parents, 1));
    d_counts_ = reinterpret_cast<unsigned long long*>(take(parents * host_sort_digits * sizeof(unsigned long long)));
    d_parents_ = reinterpret_cast<std::uint64_t*>(take(parents * sizeof(std::uint64_t)));
    d_bounds_ = reinterpret_cast<std::uint64_t*>(take(static_cast<std::size_t>(layout_.max_groups) * sizeof(std::uint64_t)));
  }

  // ---- pieces shared by both paths ----
  // Items [first, first + count) of the host arrays to the slot's first buffer, from its item `at` on.
  cudaError_t upload(slot_t& slot, std::int64_t first, std::int64_t count, const host_end& keys, const host_end& values,
                     bool ready, bool with_values = true, std::int64_t at = 0) {
    UPSWEEP_CUDA_RETURN(uploader_.upload(slot.keys[0] + at, keys.plus(static_cast<std::size_t>(first) * sizeof(Key)),
                                         static_cast<std::size_t>(count) * sizeof(Key), ready, streams_.copy_in));
    if constexpr (has_values)
      if (with_values)
        UPSWEEP_CUDA_RETURN(uploader_.upload(slot.values[0] + at, values.plus(static_cast<std::size_t>(first) * sizeof(Value)),
                                             static_cast<std::size_t>(count) * sizeof(Value), ready, streams_.copy_in));
    return cudaSuccess;
  }
  // `count` items from the device to host keys (and values), or to the output from item `to` on.
  cudaError_t download_to(const host_end& h_keys, const host_end& h_values, bool ready, const Key* d_keys,
                          const Value* d_values, std::int64_t count) {
    UPSWEEP_CUDA_RETURN(downloader_.download(h_keys, d_keys, static_cast<std::size_t>(count) * sizeof(Key), ready,
                                             streams_.copy_out));
    if constexpr (has_values)
      UPSWEEP_CUDA_RETURN(downloader_.download(h_values, d_values, static_cast<std::size_t>(count) * sizeof(Value), ready,
                                               streams_.copy_out));
    return cudaSuccess;
  }
  cudaError_t download(std::int64_t to, const Key* d_keys, const Value* d_values, std::int64_t count) {
    const auto at = static_cast<std::size_t>(to);
    return download_to(arrays_.output_keys().plus(at * sizeof(Key)), arrays_.output_values().plus(at * sizeof(Value)),
                       arrays_.out_ready, d_keys, d_values, count);
  }
  // Sorts items [first, first + count) of the slot's buffers over [begin_bit, end_bit), starting in
  // buffer `from`; returns the buffer that holds the result (known without a sync).
  cudaError_t sort_range(slot_t& slot, int from, std::int64_t first, std::int64_t count, int begin_bit, int end_bit,
                         int& result) {
    double_buffer<Key> keys(slot.keys[from] + first, slot.keys[from ^ 1] + first);
    double_buffer<Value> values(slot.values[from] + (has_values ? first : 0), slot.values[from ^ 1] + (has_values ? first : 0));
    std::size_t bytes = slot.temp_bytes;
    UPSWEEP_CUDA_RETURN((sort_double_buffer<void, Descending, Key, Value>(slot.d_temp, bytes, keys,
                                                                          has_values ? &values : nullptr, count, begin_bit,
                                                                          end_bit, streams_.compute, radix_key_codec<Key>{})));
    result = keys.selector == 0 ? from : from ^ 1;
    return cudaSuccess;
  }
  // Adds the digit counts of `keys` at `level` under the parents (none at level 0) to d_counts_.
  cudaError_t count_digits(const Key* d_keys, std::int64_t count, int level, int num_parents) {
    for (int first = 0; first < std::max(num_parents, 1); first += count_parents_per_launch) {
      digit_count_args args{begin_bit_, end_bit_, level_digits(window_bits_, level), d_parents_ + first,
                            std::min(count_parents_per_launch, num_parents - first),
                            d_counts_ + static_cast<std::size_t>(first) * host_sort_digits};
      count_window_digits_kernel<Descending><<<count_grid(count), count_block_threads, 0, streams_.compute>>>(
          d_keys, count, args);
      UPSWEEP_CUDA_RETURN(cudaGetLastError());
    }
    return cudaSuccess;
  }
  // The counts of one level on the host (waits for the device).
  cudaError_t read_counts(int num_parents, std::vector<std::int64_t>& counts) {
    std::vector<unsigned long long> raw(static_cast<std::size_t>(std::max(num_parents, 1)) * host_sort_digits);
    UPSWEEP_CUDA_RETURN(cudaStreamSynchronize(streams_.compute));
    UPSWEEP_CUDA_RETURN(cudaMemcpy(raw.data(), d_counts_, raw.size() * sizeof(raw[0]), cudaMemcpyDeviceToHost));
    counts.assign(raw.begin(), raw.end());
    return cudaSuccess;
  }

  // ---- in core ----
  // The input goes in in pieces, each counted as it lands, so only the partition waits for the
  // last piece. Groups of about n/32 pace the copies out: the last group's copy and the first
  // group's sort are all the output path does not hide (n/16 left a millisecond more at 2^28).
  cudaError_t sort_in_core() {
    slot_t& slot = slots_[0];
    UPSWEEP_CUDA_RETURN(cudaMemsetAsync(d_counts_, 0, host_sort_digits * sizeof(unsigned long long), streams_.compute));
    constexpr std::int64_t upload_pieces = 8;
    const std::int64_t piece = std::max<std::int64_t>((num_items_ + upload_pieces - 1) / upload_pieces, std::int64_t{1} << 20);
    for (std::int64_t first = 0; first < num_items_; first += piece) {
      const std::int64_t count = std::min(piece, num_items_ - first);
      UPSWEEP_CUDA_RETURN(upload(slot, first, count, arrays_.input_keys(), arrays_.input_values(), arrays_.in_ready, true, first));
      UPSWEEP_CUDA_RETURN(host_sort_streams::after(streams_.compute, streams_.copy_in, streams_.loaded[0]));
      UPSWEEP_CUDA_RETURN(count_digits(slot.keys[0] + first, count, 0, 0));
    }
    const count_level top = level_digits(window_bits_, 0);
    int partitioned = 0;
    UPSWEEP_CUDA_RETURN(sort_range(slot, 0, 0, num_items_, begin_bit_ + top.low, begin_bit_ + top.high, partitioned));
    std::vector<std::int64_t> counts;
    UPSWEEP_CUDA_RETURN(read_counts(0, counts));
    const std::vector<prefix_bucket> buckets = split_buckets({prefix_bucket{0, 0, num_items_}}, top, counts);
    const std::int64_t pace = std::max<std::int64_t>(num_items_ / 32, std::int64_t{1} << 20);
    for (const host_sort_group& group : cut_groups(buckets, pace, window_bits_)) {
      int result = partitioned;
      if (group.needs_sort && top.low > 0)
        UPSWEEP_CUDA_RETURN(sort_range(slot, partitioned, group.first, group.count, begin_bit_, end_bit_, result));
      UPSWEEP_CUDA_RETURN(host_sort_streams::after(streams_.copy_out, streams_.compute, streams_.sorted[0]));
      UPSWEEP_CUDA_RETURN(download(group.first, slot.keys[result] + group.first,
                                   has_values ? slot.values[result] + group.first : nullptr, group.count));
    }
    return cudaSuccess;
  }

  // ---- out of core ----
  std::int64_t chunks() const { return (num_items_ + layout_.capacity - 1) / layout_.capacity; }
  std::int64_t chunk_items(std::int64_t c) const { return std::min(layout_.capacity, num_items_ - c * layout_.capacity); }

  // Slot s may be refilled once its last user is done with it (the copy out, or the device work).
  cudaError_t claim(int s) { return cudaStreamWaitEvent(streams_.copy_in, streams_.slot_free[s], 0); }
  cudaError_t load_chunk(int s, std::int64_t c, bool with_values) {
    UPSWEEP_CUDA_RETURN(claim(s));
    UPSWEEP_CUDA_RETURN(upload(slots_[s], c * layout_.capacity, chunk_items(c), arrays_.input_keys(),
                               arrays_.input_values(), arrays_.in_ready, with_values));
    return host_sort_streams::after(streams_.compute, streams_.copy_in, streams_.loaded[s]);
  }

  // (1) one counting read of the input per level, until no bucket but equal keys exceeds a slot.
  cudaError_t plan_buckets(std::vector<prefix_bucket>& buckets) {
    std::vector<prefix_bucket> parents;
    buckets = {prefix_bucket{0, 0, num_items_}};
    for (int level = 0; level == 0 || !parents.empty(); ++level) {
      const int num_parents = static_cast<int>(parents.size());
      std::vector<std::uint64_t> prefixes;
      for (const prefix_bucket& p : parents) prefixes.push_back(p.prefix);
      if (!prefixes.empty())
        UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(d_parents_, prefixes.data(), prefixes.size() * sizeof(std::uint64_t),
                                            cudaMemcpyHostToDevice, streams_.compute));
      UPSWEEP_CUDA_RETURN(cudaMemsetAsync(d_counts_, 0, static_cast<std::size_t>(std::max(num_parents, 1)) *
                                                           host_sort_digits * sizeof(unsigned long long),
                                          streams_.compute));
      for (std::int64_t c = 0; c < chunks(); ++c) {
        const int s = static_cast<int>(c % 2);
        UPSWEEP_CUDA_RETURN(load_chunk(s, c, false));
        UPSWEEP_CUDA_RETURN(count_digits(slots_[s].keys[0], chunk_items(c), level, num_parents));
        UPSWEEP_CUDA_RETURN(cudaEventRecord(streams_.slot_free[s], streams_.compute));
      }
      std::vector<std::int64_t> counts;
      UPSWEEP_CUDA_RETURN(read_counts(num_parents, counts));
      const std::vector<prefix_bucket> from = level == 0 ? buckets : parents;
      const std::vector<prefix_bucket> children = split_buckets(from, level_digits(window_bits_, level), counts);
      buckets = level == 0 ? children : refine_buckets(buckets, parents, children);
      parents = oversized_buckets(level == 0 ? buckets : children, layout_.capacity, window_bits_);
    }
    return cudaSuccess;
  }

  // (2) after chunk c is sorted, its part of each group goes to the group's next free place.
  cudaError_t scatter_chunk(int s, int result, const std::vector<host_sort_group>& groups,
                            std::vector<std::int64_t>& filled, std::int64_t c) {
    UPSWEEP_CUDA_RETURN(cudaEventSynchronize(streams_.sorted[s]));  // its group starts are on the host
    const long long* starts = h_starts_ + s * (layout_.max_groups + 1);
    UPSWEEP_CUDA_RETURN(cudaStreamWaitEvent(streams_.copy_out, streams_.sorted[s], 0));
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const long long first = g == 0 ? 0 : starts[g - 1];
      const long long last = g + 1 == groups.size() ? chunk_items(c) : starts[g];
      if (last <= first) continue;
      UPSWEEP_CUDA_RETURN(download(groups[g].first + filled[g], slots_[s].keys[result] + first,
                                   has_values ? slots_[s].values[result] + first : nullptr, last - first));
      filled[g] += last - first;
    }
    return cudaEventRecord(streams_.slot_free[s], streams_.copy_out);
  }

  cudaError_t distribute(const std::vector<host_sort_group>& groups) {
    std::vector<std::uint64_t> bounds;
    for (std::size_t g = 1; g < groups.size(); ++g) bounds.push_back(groups[g].lower_bound);
    if (!bounds.empty())
      UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(d_bounds_, bounds.data(), bounds.size() * sizeof(std::uint64_t),
                                          cudaMemcpyHostToDevice, streams_.compute));
    UPSWEEP_CUDA_RETURN(cudaStreamSynchronize(streams_.compute));  // `bounds` is pageable and local
    std::vector<std::int64_t> filled(groups.size(), 0);
    int results[2] = {0, 0};
    for (std::int64_t c = 0; c <= chunks(); ++c) {
      if (c < chunks()) {  // load and sort chunk c while chunk c - 1 goes out
        const int s = static_cast<int>(c % 2);
        UPSWEEP_CUDA_RETURN(load_chunk(s, c, true));
        UPSWEEP_CUDA_RETURN(sort_range(slots_[s], 0, 0, chunk_items(c), begin_bit_, end_bit_, results[s]));
        const int num_bounds = static_cast<int>(bounds.size());
        if (num_bounds > 0) {
          find_group_starts_kernel<Descending><<<(num_bounds + 127) / 128, 128, 0, streams_.compute>>>(
              slots_[s].keys[results[s]], chunk_items(c), begin_bit_, end_bit_, d_bounds_, num_bounds, slots_[s].d_starts);
          UPSWEEP_CUDA_RETURN(cudaGetLastError());
          UPSWEEP_CUDA_RETURN(cudaMemcpyAsync(h_starts_ + s * (layout_.max_groups + 1), slots_[s].d_starts,
                                              bounds.size() * sizeof(long long), cudaMemcpyDeviceToHost,
                                              streams_.compute));
        }
        UPSWEEP_CUDA_RETURN(cudaEventRecord(streams_.sorted[s], streams_.compute));
      }
      if (c > 0) UPSWEEP_CUDA_RETURN(scatter_chunk(static_cast<int>((c - 1) % 2), results[(c - 1) % 2], groups, filled, c - 1));
    }
    return cudaSuccess;
  }

  // A group uploaded to slot s, once it has landed: sorted, copied to output item `to` on, and the
  // slot freed when the copy is done.
  cudaError_t sort_loaded_group(int s, std::int64_t to, std::int64_t count) {
    UPSWEEP_CUDA_RETURN(host_sort_streams::after(streams_.compute, streams_.copy_in, streams_.loaded[s]));
    int result = 0;
    UPSWEEP_CUDA_RETURN(sort_range(slots_[s], 0, 0, count, begin_bit_, end_bit_, result));
    UPSWEEP_CUDA_RETURN(host_sort_streams::after(streams_.copy_out, streams_.compute, streams_.sorted[s]));
    UPSWEEP_CUDA_RETURN(download(to, slots_[s].keys[result], has_values ? slots_[s].values[result] : nullptr, count));
    return cudaEventRecord(streams_.slot_free[s], streams_.copy_out);
  }

  // (3) every group that is not yet in order goes through the device once more.
  cudaError_t sort_groups(const std::vector<host_sort_group>& groups) {
    UPSWEEP_CUDA_RETURN(downloader_.finish());  // staged pieces are in the output before it is read
    UPSWEEP_CUDA_RETURN(host_sort_streams::after(streams_.copy_in, streams_.copy_out, streams_.done_out));
    int turn = 0;
    for (const host_sort_group& group : groups) {
      if (!group.needs_sort) continue;
      const int s = turn++ % 2;
      UPSWEEP_CUDA_RETURN(claim(s));
      UPSWEEP_CUDA_RETURN(upload(slots_[s], group.first, group.count, host_end::in_memory(arrays_.keys_out),
                                 host_end::in_memory(arrays_.values_out), arrays_.out_ready));
      UPSWEEP_CUDA_RETURN(sort_loaded_group(s, group.first, group.count));
    }
    return cudaSuccess;
  }

  cudaError_t sort_out_of_core() {
    if (arrays_.scratch_keys != nullptr) return sort_through_runs();
    std::vector<prefix_bucket> buckets;
    UPSWEEP_CUDA_RETURN(plan_buckets(buckets));
    const std::vector<host_sort_group> groups = cut_groups(buckets, layout_.capacity, window_bits_);
    UPSWEEP_CUDA_RETURN(distribute(groups));
    return sort_groups(groups);
  }

  // ---- out of core through sorted runs in the host scratch ----
  // (1) each chunk sorted and copied to its place in the scratch: a run. The host reads the runs
  // next, so the copies are waited for.
  cudaError_t write_runs() {
    int results[2] = {0, 0};
    for (std::int64_t c = 0; c < chunks(); ++c) {
      const int s = static_cast<int>(c % 2);
      UPSWEEP_CUDA_RETURN(load_chunk(s, c, true));
      UPSWEEP_CUDA_RETURN(sort_range(slots_[s], 0, 0, chunk_items(c), begin_bit_, end_bit_, results[s]));
      UPSWEEP_CUDA_RETURN(host_sort_streams::after(streams_.copy_out, streams_.compute, streams_.sorted[s]));
      const std::int64_t first = c * layout_.capacity;
      UPSWEEP_CUDA_RETURN(download_to(host_end::in_memory(arrays_.scratch_keys + first),
                                      host_end::in_memory(has_values ? arrays_.scratch_values + first : nullptr),
                                      arrays_.scratch_ready, slots_[s].keys[results[s]],
                                      has_values ? slots_[s].values[results[s]] : nullptr, chunk_items(c)));
      UPSWEEP_CUDA_RETURN(cudaEventRecord(streams_.slot_free[s], streams_.copy_out));
    }
    UPSWEEP_CUDA_RETURN(downloader_.finish());
    return cudaStreamSynchronize(streams_.copy_out);
  }

  // A group of one window value: its segments in run order are its sorted order, copied on the host.
  cudaError_t copy_from_runs(const run_group& group) {
    auto to = static_cast<std::size_t>(group.first);
    for (std::size_t r = 0; r < group.begin.size(); ++r) {
      const auto count = static_cast<std::size_t>(group.end[r] - group.begin[r]);
      const auto from = static_cast<std::size_t>(static_cast<std::int64_t>(r) * layout_.capacity + group.begin[r]);
      if (count == 0) continue;
      UPSWEEP_CUDA_RETURN(host_move(arrays_.output_keys().plus(to * sizeof(Key)),
                                    reinterpret_cast<char*>(arrays_.scratch_keys + from), count * sizeof(Key), false));
      if constexpr (has_values)
        UPSWEEP_CUDA_RETURN(host_move(arrays_.output_values().plus(to * sizeof(Value)),
                                      reinterpret_cast<char*>(arrays_.scratch_values + from), count * sizeof(Value), false));
      to += count;
    }
    return cudaSuccess;
  }

  // (2) each group gathered from its segment of every run, in run order (stable), sorted, and
  // copied to its place while the next one loads.
  cudaError_t sort_through_runs() {
    UPSWEEP_CUDA_RETURN(write_runs());
    run_planner<Descending, Key> planner(arrays_.scratch_keys, num_items_, layout_.capacity, begin_bit_, end_bit_);
    int turn = 0;
    for (run_group group; planner.next(layout_.capacity, group);) {  // planned while the last group is in flight
      if (group.equal_keys || group.count < 2) {
        UPSWEEP_CUDA_RETURN(copy_from_runs(group));
        continue;
      }
      const int s = turn++ % 2;
      UPSWEEP_CUDA_RETURN(claim(s));
      std::int64_t at = 0;
      for (std::size_t r = 0; r < group.begin.size(); ++r) {
        const std::int64_t count = group.end[r] - group.begin[r];
        if (count == 0) continue;
        UPSWEEP_CUDA_RETURN(upload(slots_[s], static_cast<std::int64_t>(r) * layout_.capacity + group.begin[r], count,
                                   host_end::in_memory(arrays_.scratch_keys), host_end::in_memory(arrays_.scratch_values),
                                   arrays_.scratch_ready, true, at));
        at += count;
      }
      UPSWEEP_CUDA_RETURN(sort_loaded_group(s, group.first, group.count));
    }
    return cudaSuccess;
  }

  const host_sort_layout<Descending, Key, Value>& layout_;
  host_arrays<Key, Value> arrays_;
  std::int64_t num_items_;
  int begin_bit_, end_bit_, window_bits_;
  host_sort_streams streams_;
  staging_slots uploads_, downloads_;
  host_uploader uploader_;
  host_downloader downloader_;
  slot_t slots_[2];
  long long* h_starts_ = nullptr;
  unsigned long long* d_counts_ = nullptr;
  std::uint64_t* d_parents_ = nullptr;
  std::uint64_t* d_bounds_ = nullptr;
};

}  // namespace upsweep::detail
